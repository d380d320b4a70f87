#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fwd_bench.sh: IPv4 forwarding rate between two network namespaces through
# a router namespace R, for several routers measured with the same generator
# in the same run:
#
#   ns A: generator ─veth─ ns R: ROUTER ─veth─ ns B: counted at its interface
#
# ROUTER is `kernel` (R's own stack: addresses on both veth ends,
# ip_forward=1) or a uxdp link kind that takes `dev IFNAME` (afpacket,
# afxdp, ...), optionally with its arguments: -r "afxdp mode copy". uxdp
# then runs in R with one such device on each veth end and IPv4 forwarding
# (tests/net/router_afpacket.sh's script). Adding a router kind is one -r.
#
# The generator (-g) sends SIZE-byte UDP frames to 198.19.0.3 from A:
#   afpacket  uxdp in A: a gen device (flows over 64 source ports) whose XDP
#             program (xdp_action's xdp_redirect_dev) sends every frame into
#             an afpacket device on A's veth (PACKET_QDISC_BYPASS tx ring);
#             each frame costs A an skb and a veth xmit, and R's receive
#             then runs from A's backlog, on the generator's CPU.
#   livegen   the kernel's own fastest source (uxdp-bench-livegen, beside
#             uxdp in the build): BPF_PROG_TEST_RUN in live-frame mode
#             redirects xdp_frames out of A's veth, straight into R's veth
#             NAPI ring (GRO is turned on at R's receiving end for that:
#             a veth takes ndo_xdp_xmit frames only with NAPI on). Pinned to
#             CPU 0. It costs A a fraction of afpacket's per frame, so the
#             routers, not the generator, set the rate.
# 198.19.0.3 is not B's address: B's kernel drops the frames after counting
# them at its interface (no replies). The kernel has no pktgen here (no
# modules), hence these two.
#
# Each round runs every router once, in the order given; rounds interleave
# so machine load drifts hit all routers alike. Per router and round:
# packets counted at B's interface over the measuring window (after 1 s of
# warm-up) / window = pps; CPU seconds in that window of the router process
# (uxdp routers), of the generator, and the machine's softirq time (where
# the kernel router does its work, on the generator's CPU). The summary
# gives the median pps, its ratio to the first router (the kernel by
# default), and median CPU.
#
# Usage: fwd_bench.sh [-d SECS] [-s SIZE] [-n ROUNDS] [-w WORKERS] [-r ROUTER]...
#                     [-g afpacket|livegen] [-o JSON] [-x] [-L] [-R] [-P PREFIX]
#                     UXDP PROGS_DIR
#   defaults: -d 5 -s 64 -n 3 -w 1 -r kernel -r afpacket -g afpacket
#   -x         B drops every frame in native XDP (examples/progs/xdp_drop.o on
#              its veth; still counted at its interface) instead of its IP
#              stack: the sink's cost no longer lands on whoever transmits
#              to B (the kernel router's softirq, a uxdp router's send())
#   -L         uxdp routers run -w workers and their receiving device (r0)
#              is polled by the last one: uxdp pins worker i to CPU i, and
#              the generator's worker is on CPU 0 (without -L, r0 shares it)
#   -R         R's receive softirq runs on the last CPU: RPS on R's
#              receiving veth (rps_cpus) takes it off the generator's CPU,
#              for every router: the kernel router forwards there, a uxdp
#              router's packet socket is filled there (use with -L, which
#              puts the uxdp router's receiving device on that CPU too)
#   -P PREFIX  run the generator and uxdp routers under PREFIX, e.g.
#              -P "chrt -f 10": on a machine busy with other work each then
#              gets whole CPUs, so the figure is the routers', not the load's
#              (the kernel router runs in the generator's softirq)
# Needs root (namespaces, AF_PACKET). Bounded: every uxdp run has a duration.
set -u
DUR=5 SIZE=64 ROUNDS=3 WORKERS=1 OUT= ROUTERS=()
XDP_SINK= LAST= PREFIX= RPS= GEN=afpacket
while getopts "d:s:n:w:r:g:o:xLRP:h" opt; do
	case $opt in
	d) DUR=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	n) ROUNDS=$OPTARG ;;
	w) WORKERS=$OPTARG ;;
	r) ROUTERS+=("$OPTARG") ;;
	g) GEN=$OPTARG ;;
	o) OUT=$OPTARG ;;
	x) XDP_SINK=1 ;;
	L) LAST=1 ;;
	R) RPS=1 ;;
	P) PREFIX=$OPTARG ;;
	*) sed -n '2,/^set -u/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "usage: fwd_bench.sh [options] UXDP PROGS_DIR (-h)" >&2; exit 2; }
UXDP=$(readlink -f "$1")
PROGS=$(readlink -f "$2")
[ ${#ROUTERS[@]} -gt 0 ] || ROUTERS=(kernel afpacket)
case $GEN in
afpacket) ;;
livegen)
	LIVEGEN=$(dirname "$(dirname "$UXDP")")/bench/uxdp-bench-livegen
	[ -x "$LIVEGEN" ] || { echo "-g livegen: no $LIVEGEN (build tools/bench)" >&2; exit 2; } ;;
*) echo "-g $GEN: the generator is afpacket or livegen" >&2; exit 2 ;;
esac

. "$(dirname "$(readlink -f "$0")")/../../tests/net/netns_lib.sh"
nl_init "uxb$$"	# several benchmarks may run at once
nl_require_netns
nl_require_cmd ethtool
nl_router_topology
T=$NL_TMP
HZ=$(getconf CLK_TCK)
DST=198.19.0.3

if [ -n "$XDP_SINK" ]; then
	ip -n "$NL_NS_B" link set dev "$NL_IF_B" xdpdrv obj "$PROGS/xdp_drop.o" sec xdp ||
		nl_fail "-x: cannot attach xdp_drop.o to $NL_IF_B"
fi
# -R: ip netns exec mounts R's own /sys
if [ -n "$RPS" ]; then
	ip netns exec "$NL_NS_R" sh -c \
		"printf %x $((1 << ($(nproc) - 1))) >/sys/class/net/$NL_IF_R0/queues/rx-0/rps_cpus" ||
		nl_fail "-R: cannot set rps_cpus on $NL_IF_R0"
fi
# livegen's frames reach R's veth through ndo_xdp_xmit: it needs NAPI on
if [ "$GEN" = livegen ]; then
	ip netns exec "$NL_NS_R" ethtool -K "$NL_IF_R0" gro on >/dev/null ||
		nl_fail "-g livegen: cannot turn GRO on at $NL_IF_R0"
fi
# B's kernel counts and drops what is not its own address.
ip -n "$NL_NS_B" neigh add $DST lladdr "$NL_MAC_B" dev "$NL_IF_B" nud permanent 2>/dev/null || true

cpu_of() {	# utime+stime ticks of a PID and its threads
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}
softirq_ticks() { awk '/^cpu / { print $8 }' /proc/stat; }
b_rx() { nl_link_stat "$NL_NS_B" "$NL_IF_B" rx.packets; }

kernel_router() {	# on|off
	if [ "$1" = on ]; then
		ip -n "$NL_NS_R" addr add 198.18.0.1/24 dev "$NL_IF_R0"
		ip -n "$NL_NS_R" addr add 198.19.0.1/24 dev "$NL_IF_R1"
		ip -n "$NL_NS_R" neigh replace $DST lladdr "$NL_MAC_B" dev "$NL_IF_R1" nud permanent
		ip netns exec "$NL_NS_R" sysctl -qw net.ipv4.ip_forward=1 \
			net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
	else
		ip netns exec "$NL_NS_R" sysctl -qw net.ipv4.ip_forward=0
		ip -n "$NL_NS_R" addr flush dev "$NL_IF_R0"
		ip -n "$NL_NS_R" addr flush dev "$NL_IF_R1"
	fi
}

# Without -L, r0 and r1 get a queue per worker. With -L, r1 comes first, so
# r0 (all the forwarding work) is the last NAPI kicked, on the last worker;
# and no queues argument (a veth has one rx queue).
uxdp_router_script() {	# KIND [ARGS...]
	local kind=$1 q= r0 r1
	shift
	[ "$WORKERS" -gt 1 ] && [ -z "$LAST" ] && q="queues $WORKERS"
	r0="link add r0 type $kind dev $NL_IF_R0 $* $q"
	r1="link add r1 type $kind dev $NL_IF_R1 $* $q"
	if [ -n "$LAST" ]; then
		printf '%s\n%s\n' "$r1" "$r0"
	else
		printf '%s\n%s\n' "$r0" "$r1"
	fi
	cat <<EOF
addr add 198.18.0.1/24 dev r0
addr add 198.19.0.1/24 dev r1
neigh add $DST lladdr $NL_MAC_B dev r1
sysctl net.ipv4.ip_forward=1
run $((DUR + 10))s workers $WORKERS
EOF
}

cat >"$T/gen.uxdp" <<EOF
link add g0 type gen size $SIZE proto udp src 198.18.0.2 dst $DST sport 1-64 dport 9 src_mac $NL_MAC_A dst_mac $NL_MAC_R0
link add a0 type afpacket dev $NL_IF_A
link set dev g0 xdp obj $PROGS/xdp_action.o name xdp_redirect_dev
map update xdp_action:cfg key 01000000 value dev a0
run $((DUR + 4))s
EOF

# A uxdp router is ready when its devices hold R's interfaces: packet
# sockets bound (afpacket) or an XDP program attached (afxdp); or it died.
router_ready() {	# PID
	! kill -0 "$1" 2>/dev/null && return 0
	[ "$(nl_packet_sockets "$NL_NS_R")" -ge 2 ] && return 0
	ip -n "$NL_NS_R" -j link show "$NL_IF_R0" | jq -e '.[0].xdp != null' >/dev/null &&
		ip -n "$NL_NS_R" -j link show "$NL_IF_R1" | jq -e '.[0].xdp != null' >/dev/null
}

# one measurement: prints "pps router_cpu_s gen_cpu_s softirq_s"
measure() {	# ROUTER
	local router=$1 rpid= gpid rx0 rx1 r0 r1 g0 g1 s0 s1 t0 t1
	if [ "$router" = kernel ]; then
		kernel_router on
	else
		# shellcheck disable=SC2086
		uxdp_router_script $router >"$T/router.uxdp"
		# shellcheck disable=SC2086
		nl_bg "$NL_NS_R" "$T/router.json" $PREFIX "$UXDP" -q -j run "$T/router.uxdp"
		rpid=$NL_BG_PID
		nl_wait_for 10 router_ready "$rpid" ||
			echo "router $router: not ready after 10 s (measuring anyway)" >&2
		kill -0 "$rpid" 2>/dev/null ||
			{ echo "router $router: uxdp failed: $(cat "$T/router.json.err" "$T/router.json")" >&2; return 1; }
		sleep 0.5
	fi
	if [ "$GEN" = livegen ]; then
		# shellcheck disable=SC2086
		nl_bg "$NL_NS_A" "$T/gen.json" $PREFIX taskset -c 0 "$LIVEGEN" "$PROGS" "$NL_IF_A" \
			"$NL_MAC_R0" 198.18.0.2 $DST "$SIZE" $((DUR + 4))
	else
		# shellcheck disable=SC2086
		nl_bg "$NL_NS_A" "$T/gen.json" $PREFIX "$UXDP" -q -j run "$T/gen.uxdp"
	fi
	gpid=$NL_BG_PID
	sleep 1
	rx0=$(b_rx); g0=$(cpu_of "$gpid"); s0=$(softirq_ticks); r0=0
	[ -n "$rpid" ] && r0=$(cpu_of "$rpid")
	t0=$(date +%s.%N)
	sleep "$DUR"
	rx1=$(b_rx); g1=$(cpu_of "$gpid"); s1=$(softirq_ticks); r1=0
	[ -n "$rpid" ] && r1=$(cpu_of "$rpid")
	t1=$(date +%s.%N)
	# a process that ended inside the window has no CPU figure: the machine is too slow
	if ! kill -0 "$gpid" 2>/dev/null || { [ -n "$rpid" ] && ! kill -0 "$rpid" 2>/dev/null; }; then
		echo "router $router: generator or router ended inside the window (machine overloaded?)" >&2
	fi
	nl_wait_pid "$gpid" 30 || echo "generator: exit $? $(cat "$T/gen.json.err")" >&2
	if [ -n "$rpid" ]; then
		nl_wait_pid "$rpid" 30 || echo "router $router: exit $? $(cat "$T/router.json.err")" >&2
	else
		kernel_router off
	fi
	awk -v rx=$((rx1 - rx0)) -v t="$t0 $t1" -v r=$((r1 - r0)) -v g=$((g1 - g0)) \
	    -v s=$((s1 - s0)) -v hz="$HZ" 'BEGIN { split(t, a, " "); w = a[2] - a[1];
		printf "%.0f %.2f %.2f %.2f\n", rx / w, r / hz, g / hz, s / hz }'
}

echo "fwd_bench: $SIZE B UDP from $GEN, ${DUR} s windows, $ROUNDS rounds, $WORKERS worker(s); routers: ${ROUTERS[*]}"
[ -n "$XDP_SINK$LAST$RPS$PREFIX" ] && echo "options:${XDP_SINK:+ B drops in XDP (-x);}${LAST:+ router rx on the last worker (-L);}${RPS:+ R receives on the last CPU (-R);}${PREFIX:+ under \"$PREFIX\" (-P)}"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), kernel $(uname -r)"
: >"$T/results"
for round in $(seq 1 "$ROUNDS"); do
	for i in "${!ROUTERS[@]}"; do
		res=$(measure "${ROUTERS[$i]}") || res="0 0 0 0"
		echo "$i $res" >>"$T/results"
		printf "  round %d  %-22s %12s pps  router %5s s  gen %5s s  softirq %5s s\n" \
			"$round" "${ROUTERS[$i]}" $res
	done
done

# median per router, ratio to the first
summary=$(for i in "${!ROUTERS[@]}"; do
	awk -v i="$i" '$1 == i { print $2, $3, $4, $5 }' "$T/results" | sort -n | awk -v i="$i" \
		'{ a[NR] = $0 } END { m = a[int((NR + 1) / 2)]; print i, m }'
done)
base=$(echo "$summary" | awk 'NR == 1 { print $2 }')
echo
printf "%-24s %12s %8s %10s %8s %10s %12s\n" router "median pps" "vs 1st" "router s" "gen s" "softirq s" "CPU us/pkt"
json="{\"generator\":\"$GEN\",\"size\":$SIZE,\"duration_s\":$DUR,\"rounds\":$ROUNDS,\"workers\":$WORKERS,\"results\":["
sep=
while read -r i pps rcpu gcpu scpu; do
	ratio=$(awk -v a="$pps" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	# router + generator processes + softirq, per forwarded packet
	uspp=$(awk -v p="$pps" -v d="$DUR" -v c="$rcpu $gcpu $scpu" 'BEGIN { split(c, x, " ");
		printf "%.2f", (p > 0 ? (x[1] + x[2] + x[3]) / (p * d) * 1e6 : 0) }')
	printf "%-24s %12s %7sx %10s %8s %10s %12s\n" "${ROUTERS[$i]}" "$pps" "$ratio" "$rcpu" "$gcpu" "$scpu" "$uspp"
	all=$(awk -v i="$i" '$1 == i { printf "%s%s", s, $2; s = "," }' "$T/results")
	json+="$sep{\"router\":\"${ROUTERS[$i]}\",\"median_pps\":$pps,\"ratio\":$ratio,\"pps\":[$all],"
	json+="\"router_cpu_s\":$rcpu,\"gen_cpu_s\":$gcpu,\"softirq_s\":$scpu,\"cpu_us_per_pkt\":$uspp}"
	sep=,
done <<<"$summary"
json+="]}"
[ -n "$OUT" ] && echo "$json" >"$OUT"
exit 0
