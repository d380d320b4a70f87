// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands of the link object, ip-link syntax:
 *
 *   link add NAME type KIND [ARGS...]     veth: peer name PEER; gen, sink: see `help`
 *   link set [dev] NAME xdp obj FILE [sec SECTION | name PROG] [-force] | xdp off
 *   link set [dev] NAME xdpgeneric obj FILE [sec SECTION | name PROG] [-force] | xdpgeneric off
 *   link set [dev] NAME xdpgeneric_linearize 0|1
 *   link set [dev] NAME up | down | mtu N | KNOB VALUE   (veth: xdp_batch N)
 *   link del [dev] NAME
 *   link show [[dev] NAME]
 *
 * A second program in the same mode is refused unless -force is given, as
 * iproute2 refuses it (it passes XDP_FLAGS_UPDATE_IF_NOEXIST without -force).
 *
 * The kinds and their arguments come from the library (uxdp_link_kinds(),
 * uxdp_link_kind_usage()); a kind's own arguments are parsed by its driver.
 *
 * Kernel: iproute2 ip/iplink.c (the grammar)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <uxdp_link.h>

#include "json_writer.h"
#include "main.h"
#include "script.h"

static int link_add(int argc, char **argv)
{
	char err[256] = "";
	int ret;

	if (argc < 3 || strcmp(argv[1], "type")) {
		script_err("usage: link add NAME type KIND [ARGS]");
		return EXIT_USAGE;
	}
	ret = uxdp_link_add(argv[0], argv[2], argc - 3, argv + 3, err, sizeof(err));
	if (ret < 0) {
		script_err("%s", *err ? err : strerror(-ret));
		return ret == -ENOMEM ? 1 : EXIT_USAGE;
	}
	return 0;
}

/*
 * ip-link's `[dev] NAME`: the device word of set, del and show, "dev"
 * optional as iproute2 has it. Consumes it from @argc/@argv; NULL if none.
 */
static const char *link_dev_arg(int *argc, char ***argv)
{
	const char *dev;
	int n = *argc && !strcmp((*argv)[0], "dev") ? 2 : 1;

	if (*argc < n)
		return NULL;
	dev = (*argv)[n - 1];
	*argc -= n;
	*argv += n;
	return dev;
}

/* A program on @dev in that mode already: refused without -force (iproute2, XDP_FLAGS_UPDATE_IF_NOEXIST). */
static bool link_xdp_attached(const char *dev, bool generic)
{
	struct uxdp_link_info li = { .sz = sizeof(li) };

	if (uxdp_link_get_info(uxdp_link_ifindex(dev), &li))
		return false;
	return generic ? li.xdpgeneric_prog_id : li.xdp_prog_id;
}

static int link_set_xdp(const char *dev, int argc, char **argv, bool generic)
{
	int (*set)(const char *, uint32_t, char *, size_t) =
		generic ? uxdp_link_set_xdpgeneric : uxdp_link_set_xdp;
	const char *obj_path = NULL, *sec = NULL, *name = NULL;
	struct uxdp_bpf_object *obj;
	char err[512] = "";
	bool force = false;
	int id, ret;

	if (argc == 1 && !strcmp(argv[0], "off")) {
		ret = set(dev, 0, err, sizeof(err));
		goto out;
	}
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-force") || !strcmp(argv[i], "force")) {
			force = true;
			memmove(argv + i, argv + i + 1, (argc - i - 1) * sizeof(*argv));
			argc--;
			i--;
		}
	for (int i = 0; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "obj"))
			obj_path = argv[i + 1];
		else if (!strcmp(argv[i], "sec"))
			sec = argv[i + 1];
		else if (!strcmp(argv[i], "name"))
			name = argv[i + 1];
		else {
			script_err("unknown xdp argument '%s' (obj FILE [sec SECTION | name PROG] [-force] | off)",
				   argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!obj_path || argc % 2) {
		script_err("usage: link set dev NAME xdp obj FILE [sec SECTION | name PROG] [-force] | xdp off");
		return EXIT_USAGE;
	}
	if (!force && link_xdp_attached(dev, generic)) {
		script_err("%s: XDP program already attached (%s); -force replaces it", dev,
			   generic ? "xdpgeneric" : "xdp");
		return EXIT_USAGE;
	}
	obj = script_object_get(obj_path, err, sizeof(err));
	if (!obj) {
		script_err("%s", err);
		return EXIT_USAGE;
	}
	id = uxdp_bpf_object_find_prog(obj, name, sec);
	if ((id == -EOPNOTSUPP || id == -ENOENT) && (name || sec)) {
		/* a section libbpf does not know: XDP since it is asked for (iproute2) */
		int n = uxdp_bpf_object_load_xdp(obj, name, sec, err, sizeof(err));

		if (n < 0) {
			script_err("%s", err);
			return EXIT_USAGE;
		}
		id = uxdp_bpf_object_find_prog(obj, name, sec);
	}
	if (id < 0) {
		script_err("%s: no program %s%s%s", obj_path, name ? name : sec ? "in section " : "",
			   name ? "" : sec ? sec : "", id == -EINVAL ? " (several match: use name PROG)" : "");
		return EXIT_USAGE;
	}
	ret = set(dev, id, err, sizeof(err));
out:
	if (ret) {
		script_err("%s", *err ? err : strerror(-ret));
		return EXIT_USAGE;
	}
	return 0;
}

static int link_set(int argc, char **argv)
{
	char err[256] = "";
	const char *dev;
	int ret;

	dev = link_dev_arg(&argc, &argv);
	if (!dev || !argc) {
		script_err("usage: link set [dev] NAME { xdp ... | up | down | mtu N | KNOB VALUE }");
		return EXIT_USAGE;
	}
	if (uxdp_link_ifindex(dev) < 0) {
		script_err("device '%s' does not exist", dev);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "xdp") || !strcmp(argv[0], "xdpdrv"))
		return link_set_xdp(dev, argc - 1, argv + 1, false);
	if (!strcmp(argv[0], "xdpgeneric"))
		return link_set_xdp(dev, argc - 1, argv + 1, true);
	while (argc) {
		bool flag = !strcmp(argv[0], "up") || !strcmp(argv[0], "down");

		if (!flag && argc < 2) {
			script_err("'%s' needs a value", argv[0]);
			return EXIT_USAGE;
		}
		ret = uxdp_link_set(dev, argv[0], flag ? NULL : argv[1], err, sizeof(err));
		if (ret) {
			script_err("%s", *err ? err : strerror(-ret));
			return EXIT_USAGE;
		}
		argc -= flag ? 1 : 2;
		argv += flag ? 1 : 2;
	}
	return 0;
}

static int link_del(int argc, char **argv)
{
	const char *dev = link_dev_arg(&argc, &argv);

	if (!dev || argc) {
		script_err("usage: link del [dev] NAME");
		return EXIT_USAGE;
	}
	if (uxdp_link_del(dev)) {
		script_err("device '%s' does not exist", dev);
		return EXIT_USAGE;
	}
	return 0;
}

/* ip's XDP_ATTACHED_* (include/uapi/linux/if_link.h): "mode" in ip -j link */
#define XDP_ATTACHED_DRV	1
#define XDP_ATTACHED_SKB	2
#define XDP_ATTACHED_MULTI	4

static void link_xdp_prog_json(struct json_writer *w, int mode, uint32_t id)
{
	jsonw_int_field(w, "mode", mode);
	jsonw_name(w, "prog");
	jsonw_start_object(w);
	jsonw_uint_field(w, "id", id);
	jsonw_end_object(w);
}

/* "xdp" as ip -j link show prints it: one program, or "attached" for both. */
static void link_xdp_json(struct json_writer *w, const struct uxdp_link_info *li)
{
	jsonw_name(w, "xdp");
	jsonw_start_object(w);
	if (li->xdp_prog_id && li->xdpgeneric_prog_id) {
		jsonw_int_field(w, "mode", XDP_ATTACHED_MULTI);
		jsonw_name(w, "attached");
		jsonw_start_array(w);
		jsonw_start_object(w);
		link_xdp_prog_json(w, XDP_ATTACHED_DRV, li->xdp_prog_id);
		jsonw_end_object(w);
		jsonw_start_object(w);
		link_xdp_prog_json(w, XDP_ATTACHED_SKB, li->xdpgeneric_prog_id);
		jsonw_end_object(w);
		jsonw_end_array(w);
	} else if (li->xdp_prog_id) {
		link_xdp_prog_json(w, XDP_ATTACHED_DRV, li->xdp_prog_id);
	} else {
		link_xdp_prog_json(w, XDP_ATTACHED_SKB, li->xdpgeneric_prog_id);
	}
	if (li->xdpgeneric_prog_id)
		jsonw_int_field(w, "xdpgeneric_linearize", li->xdpgeneric_linearize);
	jsonw_end_object(w);
}

/*
 * `link show [dev NAME]`: text as `ip link show`, JSON as `ip -j link
 * show` (the kind in linkinfo.info_kind, as `ip -d` has it).
 */
static int link_show(int argc, char **argv)
{
	static const char *const flags[] = { "BROADCAST", "MULTICAST", "UP", "LOWER_UP" };
	struct json_writer w;
	char mac[18];
	int only = 0;

	if (argc) {
		const char *dev = link_dev_arg(&argc, &argv);

		if (!dev || argc) {
			script_err("usage: link show [[dev] NAME]");
			return EXIT_USAGE;
		}
		only = uxdp_link_ifindex(dev);
		if (only < 0) {
			script_err("device '%s' does not exist", dev);
			return EXIT_USAGE;
		}
	}
	if (jsonw_open(&w))
		return 1;
	jsonw_start_array(&w);
	for (int i = uxdp_link_next(0); i; i = uxdp_link_next(i)) {
		struct uxdp_link_info li = { .sz = sizeof(li) }, pi = { .sz = sizeof(pi) };
		const char *xdp = "";

		if ((only && i != only) || uxdp_link_get_info(i, &li))
			continue;
		if (li.peer_ifindex && uxdp_link_get_info(li.peer_ifindex, &pi))
			li.peer_ifindex = 0;
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", li.addr[0], li.addr[1],
			 li.addr[2], li.addr[3], li.addr[4], li.addr[5]);
		if (li.xdp_prog_id || li.xdpgeneric_prog_id)
			xdp = li.xdp_prog_id && li.xdpgeneric_prog_id ? " xdpmulti" :
			      li.xdp_prog_id ? " xdp" : " xdpgeneric";
		if (!json_output) {
			printf("%d: %s%s%s: <BROADCAST,MULTICAST%s> mtu %u%s state %s mode DEFAULT\n"
			       "    link/ether %s brd ff:ff:ff:ff:ff:ff\n", li.ifindex, li.name,
			       li.peer_ifindex ? "@" : "", li.peer_ifindex ? pi.name : "",
			       li.up ? ",UP,LOWER_UP" : "", li.mtu, xdp, li.up ? "UP" : "DOWN", mac);
			printf("    %s\n", li.kind);
			if (li.xdp_prog_id)
				printf("    prog/xdp id %u\n", li.xdp_prog_id);
			if (li.xdpgeneric_prog_id)
				printf("    prog/xdpgeneric id %u xdpgeneric_linearize %d\n",
				       li.xdpgeneric_prog_id, li.xdpgeneric_linearize);
		}
		jsonw_start_object(&w);
		jsonw_int_field(&w, "ifindex", li.ifindex);
		if (li.peer_ifindex)
			jsonw_string_field(&w, "link", pi.name);
		jsonw_string_field(&w, "ifname", li.name);
		jsonw_name(&w, "flags");
		jsonw_start_array(&w);
		for (unsigned int f = 0; f < (li.up ? 4 : 2); f++)
			jsonw_string(&w, flags[f]);
		jsonw_end_array(&w);
		jsonw_uint_field(&w, "mtu", li.mtu);
		if (*xdp)
			link_xdp_json(&w, &li);
		jsonw_string_field(&w, "operstate", li.up ? "UP" : "DOWN");
		jsonw_string_field(&w, "link_type", "ether");
		jsonw_string_field(&w, "address", mac);
		jsonw_string_field(&w, "broadcast", "ff:ff:ff:ff:ff:ff");
		jsonw_name(&w, "linkinfo");
		jsonw_start_object(&w);
		jsonw_string_field(&w, "info_kind", li.kind);
		jsonw_end_object(&w);
		jsonw_end_object(&w);
	}
	jsonw_end_array(&w);
	return run_append_writer("link", &w);
}

static int link_help(int argc, char **argv)
{
	const char *const *k;

	script_help(stdout, "link");
	printf("Kinds:\n");
	for (k = uxdp_link_kinds(); *k; k++) {
		const char *usage = uxdp_link_kind_usage(*k);

		printf("  link add NAME type %s%s%s\n", *k, *usage ? " " : "", usage);
	}
	return 0;
}

const struct script_cmd iplink_cmds[] = {
	{ "add", link_add, "add NAME type KIND [ARGS]" },
	{ "set", link_set, "set [dev] NAME { xdp[generic] obj FILE [sec S | name PROG] [-force] | xdp[generic] off | xdpgeneric_linearize 0|1 | up | down | mtu N | xdp_batch N }" },
	{ "del", link_del, "del [dev] NAME" },
	{ "delete", link_del, "delete [dev] NAME" },
	{ "show", link_show, "show [[dev] NAME]" },
	{ "list", link_show, "list [[dev] NAME]" },
	{ "help", link_help, "help" },
	{ 0 }
};
