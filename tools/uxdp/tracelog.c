// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_trace_printk()/bpf_printk() lines formatted as the kernel's
 * trace_pipe prints them, which is what `bpftool prog tracelog` copies
 * out: task-pid, CPU, the irq/softirq/preempt flags, a timestamp in
 * seconds, the event name, the message. The task is the uxdp process; the
 * CPU is 0 (the worker of `prog run`); the flags are those of an XDP
 * program run in softirq context ("d.s1.").
 *
 * Kernel: kernel/trace/trace_output.c trace_print_context(),
 *	   tools/bpf/bpftool/tracelog.c do_tracelog()
 * Differs: with -j each line is a JSON string inside the caller's
 *	    document, not a stream of its own.
 */
#include <string.h>
#include <unistd.h>

#include <uxdp_bpf.h>

#include "tracelog.h"

#define TRACELOG_BUF	(64 * 1024)

unsigned int tracelog_drain(tracelog_fn fn, void *ctx)
{
	static char buf[TRACELOG_BUF];
	unsigned int lines = 0;
	size_t n;

	while ((n = uxdp_bpf_trace_pipe_read(buf, sizeof(buf)))) {
		size_t start = 0;

		for (size_t i = 0; i < n; i++) {
			if (buf[i] != '\n' && i + 1 < n)
				continue;
			fn(ctx, buf + start, i + (buf[i] != '\n') - start);
			lines++;
			start = i + 1;
		}
	}
	return lines;
}

static void json_chars(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
}

void tracelog_print(FILE *f, const char *msg, size_t len, uint64_t ts_ns, bool json)
{
	char ctx[96];

	snprintf(ctx, sizeof(ctx), "%16s-%-7d [%03d] d.s1. %5llu.%06llu: bpf_trace_printk: ",
		 "uxdp", (int)getpid(), 0, (unsigned long long)(ts_ns / 1000000000ULL),
		 (unsigned long long)(ts_ns % 1000000000ULL / 1000));
	if (!json) {
		fprintf(f, "%s%.*s\n", ctx, (int)len, msg);
		return;
	}
	fputc('"', f);
	json_chars(f, ctx, strlen(ctx));
	json_chars(f, msg, len);
	fputc('"', f);
}
