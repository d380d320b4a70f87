// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp prog ...`: bpftool's prog object. Filled in by the eBPF runtime work.
 */
#include "main.h"

static int do_show(int argc, char **argv)
{
	p_err("prog show: not built yet");
	return 1;
}

const struct cmd prog_cmds[] = {
	{ "show", do_show, "show OBJ", "list the programs and maps of an object file" },
	{ 0 }
};

int do_prog(int argc, char **argv)
{
	return cmd_select(prog_cmds, argc, argv, "prog");
}
