// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands for IPv4, iproute2 syntax:
 *
 *   addr add A.B.C.D/LEN|X:X::X/LEN dev NAME   addr show
 *   route add PREFIX|default [via GW] [dev NAME]   route add blackhole|unreachable|prohibit PREFIX
 *   route show
 *   neigh add IP lladdr MAC dev NAME       neigh show   (-j: as ip -j neigh show)
 *   ntable show                            the ARP table's statistics (ip -s ntable)
 *   sysctl [-w] net.ipv4.KEY=VALUE         (ip_forward, ip_default_ttl, icmp_ratemask, ...,
 *                                           neigh.DEV.KEY), net.ipv6.conf.all.forwarding, ...
 *   snmp                                   the Ip, Icmp, Ip6 and Icmp6 counters (nstat -az style)
 *
 * Kernel: iproute2 ip/ipaddress.c, ip/iproute.c, ip/ipneigh.c; procps sysctl
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp_link.h>

#include "main.h"
#include "script.h"

static int fail(const char *err, int ret)
{
	script_err("%s", *err ? err : strerror(-ret));
	return ret == -ENOMEM ? 1 : EXIT_USAGE;
}

static int show(int what)
{
	char line[256];

	if (json_output)
		return 0;
	for (int i = 0; !uxdp_ip_show(what, i, line, sizeof(line)); i++)
		printf("%s\n", line);
	return 0;
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

static int addr_show(int argc, char **argv)
{
	return show(0);
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

static int route_show(int argc, char **argv)
{
	return show(1);
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

static int neigh_show(int argc, char **argv)
{
	char line[256], *buf = NULL;
	size_t len = 0;
	bool first = true;
	FILE *j;

	if (!json_output)
		return show(2);
	j = open_memstream(&buf, &len);
	if (!j)
		return 1;
	fprintf(j, "[");
	for (int i = 0; !uxdp_ip_neigh_json(i, line, sizeof(line)); i++) {
		if (!line[0])
			continue;
		fprintf(j, "%s%s", first ? "" : ",", line);
		first = false;
	}
	fprintf(j, "]");
	fclose(j);
	run_append_json("neigh", buf);
	free(buf);
	return 0;
}

static int ntable_show(int argc, char **argv)
{
	char names[32][48], *buf = NULL;
	uint64_t values[32];
	const char *id;
	size_t len = 0;
	FILE *j;
	int n;

	j = open_memstream(&buf, &len);
	if (!j)
		return 1;
	fprintf(j, "{");
	for (int t = 0; (n = uxdp_neigh_stats_get(t, &id, names, values, 32)) > 0; t++) {
		fprintf(j, "%s\"%s\":{", t ? "," : "", id);
		if (!json_output)
			printf("%s:", id);
		for (int i = 0; i < n && i < 32; i++) {
			fprintf(j, "%s\"%s\":%llu", i ? "," : "", names[i], (unsigned long long)values[i]);
			if (!json_output)
				printf(" %s %llu", names[i], (unsigned long long)values[i]);
		}
		fprintf(j, "}");
		if (!json_output)
			printf("\n");
	}
	fprintf(j, "}");
	fclose(j);
	run_append_json("ntable", buf);
	free(buf);
	return 0;
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

static int do_snmp(int argc, char **argv)
{
	char names[128][48];
	uint64_t values[128];
	int n = uxdp_ip_snmp_get(names, values, 128);
	char *buf = NULL;
	size_t len = 0;
	FILE *j;

	if (json_output) {
		/* "snmp": {"Ip.InReceives": N, ...}, every counter */
		j = open_memstream(&buf, &len);
		if (!j)
			return 1;
		fprintf(j, "{");
		for (int i = 0; i < n && i < 128; i++)
			fprintf(j, "%s\"%s\":%llu", i ? "," : "", names[i], (unsigned long long)values[i]);
		fprintf(j, "}");
		fclose(j);
		run_append_json("snmp", buf);
		free(buf);
		return 0;
	}
	for (int i = 0; i < n && i < 128; i++)
		if (values[i] || (argc && !strcmp(argv[0], "-a")))
			printf("%-28s %llu\n", names[i], (unsigned long long)values[i]);
	return 0;
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
