// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands for IPv4, iproute2 syntax:
 *
 *   addr add A.B.C.D/LEN|X:X::X/LEN dev NAME   addr show
 *   route add PREFIX|default [via GW] [dev NAME]   route add blackhole|unreachable|prohibit PREFIX
 *   route show
 *   neigh add IP lladdr MAC dev NAME       neigh show
 * (the show commands print text as ip does and, with -j, JSON as ip -j)
 *   ntable show                            the ARP table's statistics (ip -s ntable)
 *   sysctl [-w] net.ipv4.KEY=VALUE         (ip_forward, ip_default_ttl, icmp_ratemask, ...,
 *                                           neigh.DEV.KEY), net.ipv6.conf.all.forwarding, ...
 *   snmp                                   the Ip, Icmp, Ip6 and Icmp6 counters (nstat -az style)
 *
 * Kernel: iproute2 ip/ipaddress.c, ip/iproute.c, ip/ipneigh.c; procps sysctl
 */
#include <errno.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp_link.h>

#include "json_writer.h"
#include "main.h"
#include "script.h"

static int fail(const char *err, int ret)
{
	script_err("%s", *err ? err : strerror(-ret));
	return ret == -ENOMEM ? 1 : EXIT_USAGE;
}

static const char *family_name(int family)
{
	return family == AF_INET6 ? "inet6" : "inet";
}

static int addr_add(int argc, char **argv)
{
	char err[256] = "";
	int ret;

	if (argc != 3 || strcmp(argv[1], "dev")) {
		script_err("usage: addr add A.B.C.D/LEN dev NAME");
		return EXIT_USAGE;
	}
	ret = uxdp_ip_addr_add(argv[2], argv[0], err, sizeof(err));
	return ret ? fail(err, ret) : 0;
}

/*
 * `addr show`: text as the flat list `inet A/LEN dev NAME`; JSON as
 * `ip -j addr show`, one object per device holding its addr_info.
 */
static int addr_show(int argc, char **argv)
{
	struct uxdp_ip_addr a;
	struct json_writer w;

	if (jsonw_open(&w))
		return 1;
	jsonw_start_array(&w);
	for (int i = uxdp_link_next(0); i; i = uxdp_link_next(i)) {
		struct uxdp_link_info li = { .sz = sizeof(li) };
		bool any = false;

		if (uxdp_link_get_info(i, &li))
			continue;
		for (int k = 0; !uxdp_ip_addr_get(k, &a); k++) {
			if (strcmp(a.dev, li.name))
				continue;
			if (!any) {
				jsonw_start_object(&w);
				jsonw_int_field(&w, "ifindex", li.ifindex);
				jsonw_string_field(&w, "ifname", li.name);
				jsonw_name(&w, "addr_info");
				jsonw_start_array(&w);
				any = true;
			}
			jsonw_start_object(&w);
			jsonw_string_field(&w, "family", family_name(a.family));
			jsonw_string_field(&w, "local", a.local);
			jsonw_uint_field(&w, "prefixlen", a.prefixlen);
			jsonw_string_field(&w, "scope", a.scope);
			jsonw_end_object(&w);
		}
		if (any) {
			jsonw_end_array(&w);
			jsonw_end_object(&w);
		}
	}
	jsonw_end_array(&w);
	/* text in the library's order (IPv4 first), as before */
	for (int k = 0; !json_output && !uxdp_ip_addr_get(k, &a); k++)
		printf("%s %s/%u dev %s%s\n", family_name(a.family), a.local, a.prefixlen, a.dev,
		       strcmp(a.scope, "link") ? "" : " scope link");
	return run_append_writer("addr", &w);
}

static int route_add(int argc, char **argv)
{
	const char *type = NULL, *via = NULL, *dev = NULL, *prefix;
	char err[256] = "";
	int ret;

	if (argc && (!strcmp(argv[0], "blackhole") || !strcmp(argv[0], "unreachable") ||
		     !strcmp(argv[0], "prohibit") || !strcmp(argv[0], "unicast"))) {
		type = argv[0];
		argc--;
		argv++;
	}
	if (argc < 1 || argc % 2 == 0)
		goto usage;
	prefix = argv[0];
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "via"))
			via = argv[i + 1];
		else if (!strcmp(argv[i], "dev"))
			dev = argv[i + 1];
		else
			goto usage;
	}
	ret = uxdp_ip_route_add(prefix, type, via, dev, err, sizeof(err));
	return ret ? fail(err, ret) : 0;
usage:
	script_err("usage: route add [blackhole|unreachable|prohibit] PREFIX|default [via GW] [dev NAME]");
	return EXIT_USAGE;
}

/* `route show`: text as `ip route show`, JSON as `ip -j route show`. */
static int route_show(int argc, char **argv)
{
	struct uxdp_ip_route r;
	struct json_writer w;
	char dst[64];

	if (jsonw_open(&w))
		return 1;
	jsonw_start_array(&w);
	for (int i = 0; !uxdp_ip_route_get(i, &r); i++) {
		bool unicast = !strcmp(r.type, "unicast");

		if (!r.dst_len)
			snprintf(dst, sizeof(dst), "default");
		else
			snprintf(dst, sizeof(dst), "%s/%u", r.dst, r.dst_len);
		if (!json_output)
			printf("%s%s%s%s%s%s%s%s\n", unicast ? "" : r.type, unicast ? "" : " ", dst,
			       *r.gateway ? " via " : "", r.gateway, *r.dev ? " dev " : "", r.dev,
			       strcmp(r.scope, "link") ? "" : " scope link");
		jsonw_start_object(&w);
		if (!unicast)
			jsonw_string_field(&w, "type", r.type);
		/* ip -j: a host route's dst is the bare address */
		jsonw_string_field(&w, "dst", r.dst_len == (r.family == AF_INET6 ? 128 : 32) ?
				   r.dst : dst);
		if (*r.gateway)
			jsonw_string_field(&w, "gateway", r.gateway);
		if (*r.dev)
			jsonw_string_field(&w, "dev", r.dev);
		if (strcmp(r.scope, "universe"))
			jsonw_string_field(&w, "scope", r.scope);
		jsonw_name(&w, "flags");
		jsonw_start_array(&w);
		jsonw_end_array(&w);
		jsonw_end_object(&w);
	}
	jsonw_end_array(&w);
	return run_append_writer("route", &w);
}

static int neigh_add(int argc, char **argv)
{
	const char *lladdr = NULL, *dev = NULL;
	char err[256] = "";
	int ret;

	if (argc < 5 || argc % 2 == 0)
		goto usage;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "lladdr"))
			lladdr = argv[i + 1];
		else if (!strcmp(argv[i], "dev"))
			dev = argv[i + 1];
		else if (!strcmp(argv[i], "nud") && !strcmp(argv[i + 1], "permanent"))
			;
		else
			goto usage;
	}
	if (!lladdr || !dev)
		goto usage;
	ret = uxdp_ip_neigh_add(argv[0], lladdr, dev, err, sizeof(err));
	return ret ? fail(err, ret) : 0;
usage:
	script_err("usage: neigh add IP lladdr MAC dev NAME [nud permanent]");
	return EXIT_USAGE;
}

/* `neigh show`: text as `ip neigh show`, JSON as `ip -j neigh show`. */
static int neigh_show(int argc, char **argv)
{
	struct uxdp_ip_neigh n;
	struct json_writer w;

	if (jsonw_open(&w))
		return 1;
	jsonw_start_array(&w);
	for (int i = 0; !uxdp_ip_neigh_get(i, &n); i++) {
		if (n.noarp)
			continue;	/* iproute2's default filter */
		if (!json_output)
			printf("%s dev %s%s%s %s\n", n.dst, n.dev, *n.lladdr ? " lladdr " : "",
			       n.lladdr, n.state);
		jsonw_start_object(&w);
		jsonw_string_field(&w, "dst", n.dst);
		jsonw_string_field(&w, "dev", n.dev);
		if (*n.lladdr)
			jsonw_string_field(&w, "lladdr", n.lladdr);
		jsonw_name(&w, "state");
		jsonw_start_array(&w);
		jsonw_string(&w, n.state);
		jsonw_end_array(&w);
		jsonw_end_object(&w);
	}
	jsonw_end_array(&w);
	return run_append_writer("neigh", &w);
}

static int ntable_show(int argc, char **argv)
{
	char names[32][48];
	struct json_writer w;
	uint64_t values[32];
	const char *id;
	int n;

	if (jsonw_open(&w))
		return 1;
	jsonw_start_object(&w);
	for (int t = 0; (n = uxdp_neigh_stats_get(t, &id, names, values, 32)) > 0; t++) {
		jsonw_name(&w, id);
		jsonw_start_object(&w);
		if (!json_output)
			printf("%s:", id);
		for (int i = 0; i < n && i < 32; i++) {
			jsonw_uint_field(&w, names[i], values[i]);
			if (!json_output)
				printf(" %s %llu", names[i], (unsigned long long)values[i]);
		}
		jsonw_end_object(&w);
		if (!json_output)
			printf("\n");
	}
	jsonw_end_object(&w);
	return run_append_writer("ntable", &w);
}

static const struct {
	const char *key;
	int (*set)(int on);
} bpf_knobs[] = {
	{ "net.core.bpf_jit_enable", uxdp_bpf_jit_enable_set },
	{ "net.core.bpf_hardened", uxdp_bpf_hardened_set },
};

static int do_sysctl(int argc, char **argv)
{
	char err[256] = "", key[128], *eq;
	unsigned int i;
	int ret;

	if (argc && !strcmp(argv[0], "-w")) {
		argc--;
		argv++;
	}
	if (argc != 1 || !(eq = strchr(argv[0], '=')) || (size_t)(eq - argv[0]) >= sizeof(key)) {
		script_err("usage: sysctl [-w] net.ipv4.KEY=VALUE");
		return EXIT_USAGE;
	}
	memcpy(key, argv[0], eq - argv[0]);
	key[eq - argv[0]] = 0;
	/* eBPF knobs for the programs loaded from here on (kernel/bpf/core.c, fixups.c) */
	for (i = 0; i < sizeof(bpf_knobs) / sizeof(bpf_knobs[0]); i++) {
		if (strcmp(key, bpf_knobs[i].key))
			continue;
		if (strcmp(eq + 1, "0") && strcmp(eq + 1, "1")) {
			script_err("sysctl %s: bad value '%s' (0 or 1)", key, eq + 1);
			return EXIT_USAGE;
		}
		return bpf_knobs[i].set(eq[1] - '0') ? EXIT_USAGE : 0;
	}
	ret = uxdp_sysctl_set(key, eq + 1, err, sizeof(err));
	return ret ? fail(err, ret) : 0;
}

/* `snmp [-a]`: text nstat-style (non-zero only without -a); JSON every counter. */
static int do_snmp(int argc, char **argv)
{
	bool all = argc && !strcmp(argv[0], "-a");
	char names[128][48];
	struct json_writer w;
	uint64_t values[128];
	int n = uxdp_ip_snmp_get(names, values, 128);

	if (argc > 1 || (argc && !all)) {
		script_err("usage: snmp [-a]");
		return EXIT_USAGE;
	}
	if (jsonw_open(&w))
		return 1;
	/* "snmp": {"Ip.InReceives": N, ...} */
	jsonw_start_object(&w);
	for (int i = 0; i < n && i < 128; i++) {
		jsonw_uint_field(&w, names[i], values[i]);
		if (!json_output && (values[i] || all))
			printf("%-28s %llu\n", names[i], (unsigned long long)values[i]);
	}
	jsonw_end_object(&w);
	return run_append_writer("snmp", &w);
}

const struct script_cmd ipaddr_cmds[] = {
	{ "add", addr_add, "add A.B.C.D/LEN dev NAME" },
	{ "show", addr_show, "show" },
	{ 0 }
};

const struct script_cmd iproute_cmds[] = {
	{ "add", route_add, "add [blackhole|unreachable|prohibit] PREFIX|default [via GW] [dev NAME]" },
	{ "show", route_show, "show" },
	{ 0 }
};

const struct script_cmd ipneigh_cmds[] = {
	{ "add", neigh_add, "add IP lladdr MAC dev NAME" },
	{ "show", neigh_show, "show" },
	{ 0 }
};

const struct script_cmd ipntable_cmds[] = {
	{ "show", ntable_show, "show" },
	{ 0 }
};

const struct script_cmd ipv4_cmds[] = {
	{ "sysctl", do_sysctl, "sysctl net.ipv4.KEY=VALUE" },
	{ "snmp", do_snmp, "snmp [-a]" },
	{ 0 }
};
