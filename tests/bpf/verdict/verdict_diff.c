// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier verdict differential: every XDP program of the inputs is loaded
 * in this machine's kernel (the oracle: libbpf / BPF_PROG_LOAD with the
 * verifier log, see kernel_judge()) and in uxdp, and the two verdicts are
 * compared: accepted or rejected, and for rejections the first line of
 * the error message.
 *
 * Inputs:
 *   NAME.o     every XDP program of the object: the kernel through libbpf
 *              (a fresh bpf_object per program, only that one autoloaded),
 *              uxdp through uxdp_bpf_object_open() (the loader of
 *              `uxdp prog run`), which stops at the first program it
 *              refuses: the programs after it are UNKNOWN.
 *   NAME.data  a conformance-format case (-- asm / -- raw, tests/bpf/asm.c
 *              assembles), loaded as BPF_PROG_TYPE_XDP in both (the
 *              kernel: BPF_PROG_LOAD; uxdp: bpf_prog_load()). Cases that
 *              treat r1 as raw memory (a -- mem section, or r1 as the base
 *              of a memory access, outside "-- options xdp") are put in
 *              the group GROUP/r1-mem: as XDP programs r1 is the ctx, so
 *              their verdicts say little about the ISA case itself.
 *   --mutate   instead of the objects' own verdicts: mutants of each
 *              program's bytecode as the kernel received it (after libbpf
 *              relocation, map fds in ld_imm64), around every conditional
 *              jump (see mutate_prog()); the kernel judges each through
 *              BPF_PROG_LOAD, uxdp through bpf_prog_load() with the same
 *              maps recreated in uxdp.
 *
 * Messages: the kernel's is the first line of the last block of non-trace
 * lines before "processed N insns" (instruction and state dumps, source
 * lines, "from A to B" are trace); uxdp's is the text after "insn N: " of
 * its checker log, else its loader's first line. Whitespace is collapsed
 * before comparing.
 *
 * Every uxdp load runs in a forked child with a timeout: a crash or a hang
 * is reported as CRASH / HANG (and fails the run).
 *
 * Exit: 0 when every verdict agrees, 1 otherwise (message mismatches only
 * with --strict-msg), 2 usage, 77 when the kernel cannot load BPF programs.
 *
 * Kernel: kernel/bpf/verifier.c bpf_check(), kernel/bpf/log.c (rotating log)
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <uxdp_bpf.h>

#include "verdict_uxdp.h"

#define SKIP		77
#define KLOG_SIZE	(4U << 20)	/* kernel log (rotating: the tail is kept) */
#define ULOG_SIZE	(64U << 10)	/* uxdp log */
#define MSG_SIZE	512
#define MAX_INSNS	(1U << 20)
#define MAX_MAPS	64

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* ---- options and records -------------------------------------------------- */

static const char *opt_group = "default";
static const char *opt_json;
static bool opt_strict_msg, opt_mutate, opt_verbose, opt_error_cases;
static unsigned int opt_max_mutants = 300;
static unsigned int opt_timeout = 20;

enum vstate { V_ACCEPT, V_REJECT, V_CRASH, V_HANG, V_UNKNOWN };

static const char *const vstate_str[] = {
	[V_ACCEPT] = "accept", [V_REJECT] = "reject", [V_CRASH] = "crash",
	[V_HANG] = "hang", [V_UNKNOWN] = "unknown",
};

struct verdict {
	enum vstate st;
	int err;		/* -errno of the load */
	char msg[MSG_SIZE];	/* first line of the message (rejections) */
	char *block;		/* kernel: the lines of the error */
	char *log;		/* the log, its last LOG_KEEP bytes (--json) */
};

enum cls {
	C_AGREE_ACCEPT, C_AGREE_REJECT, C_MSG, C_KREJECT_UACCEPT, C_KACCEPT_UREJECT,
	C_CRASH, C_HANG, C_UNKNOWN, C_SKIP, C_KNOWN, NR_CLS
};

static const char *const cls_key[NR_CLS] = {
	"agree_accept", "agree_reject", "msg_mismatch", "kernel_reject_uxdp_accept",
	"kernel_accept_uxdp_reject", "crash", "hang", "unknown", "skip", "known_gap",
};

/*
 * --known OBJ=WHY: a disagreement on the programs of object OBJ (its file
 * name) is a documented gap, reported as KNOWN and not failed; an
 * agreement is reported as usual, so a gap that closes shows.
 */
#define MAX_KNOWN	32
static const char *known_obj[MAX_KNOWN], *known_why[MAX_KNOWN];
static unsigned int nr_known;

static const char *known_gap(const char *name)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < nr_known; i++) {
		n = strlen(known_obj[i]);
		if (!strncmp(name, known_obj[i], n) && (name[n] == ':' || !name[n]))
			return known_why[i];
	}
	return NULL;
}

struct rec {
	char *group;
	char *name;
	char *kind;		/* object, data, base, mutant */
	enum cls cls;
	char *skip_why;
	char op;		/* mutants: the kind, 'a'..'g' (mutate_prog()) */
	struct verdict k, u;
};

static struct rec *recs;
static size_t nr_recs, cap_recs;

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		abort();
	return d;
}

static __attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/* Collapse whitespace runs to one space, trim both ends. */
static void normalise(char *s)
{
	char *d = s, *p = s;
	bool sp = false;

	while (*p && isspace((unsigned char)*p))
		p++;
	for (; *p; p++) {
		if (isspace((unsigned char)*p)) {
			sp = true;
			continue;
		}
		if (sp && d != s)
			*d++ = ' ';
		sp = false;
		*d++ = *p;
	}
	*d = '\0';
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/*
 * What the loaders put in front of a message: "OBJECT.o: ", "prog 'NAME': ",
 * "insn N: ".
 */
static void strip_prefixes(char *s)
{
	for (;;) {
		char *p = s, *e;

		if (starts(s, "prog '") && (e = strstr(s, "': ")))
			p = e + 3;
		else if ((e = strstr(s, ".o: ")) && !memchr(s, ' ', e - s))
			p = e + 4;
		else if (starts(s, "insn ") && isdigit((unsigned char)s[5])) {
			for (e = s + 5; isdigit((unsigned char)*e); e++)
				;
			if (e[0] == ':' && e[1] == ' ')
				p = e + 2;
		}
		if (p == s)
			return;
		memmove(s, p, strlen(p) + 1);
	}
}

static void set_msg(struct verdict *v, const char *s, size_t n)
{
	if (n >= sizeof(v->msg))
		n = sizeof(v->msg) - 1;
	memcpy(v->msg, s, n);
	v->msg[n] = '\0';
	normalise(v->msg);
	strip_prefixes(v->msg);
}

/* ---- message extraction --------------------------------------------------- */

#define LOG_KEEP	4096

static void keep_log(struct verdict *v, const char *log)
{
	size_t n = strlen(log);

	free(v->log);
	v->log = n > LOG_KEEP ? xasprintf("...%s", log + n - LOG_KEEP) : xstrdup(log);
}

/* Lines of an instruction/state trace at log_level 1, not part of an error. */
static bool trace_line(const char *s)
{
	static const char *const prefixes[] = {
		"; ", "from ", "caller:", "callee:", "returning from callee", "to caller at",
		"Func#", "Validating ", "mark_precise", "last_idx", "regs=", "parent ",
		"propagating ", "frame", " ", "\t", "func#",
	};
	const char *p = s;
	size_t i;

	if (isdigit((unsigned char)*p)) {
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == ':')
			return true;
	}
	for (i = 0; i < ARRAY_LEN(prefixes); i++)
		if (starts(s, prefixes[i]))
			return true;
	return false;
}

static bool stats_line(const char *s)
{
	return starts(s, "processed ") || starts(s, "verification time") ||
	       starts(s, "stack depth") || !*s;
}

struct lines {
	char **l;
	size_t n;
};

static void split_lines(char *text, struct lines *ls)
{
	char *p = text, *nl;
	size_t cap = 0;

	ls->l = NULL;
	ls->n = 0;
	while (p && *p) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (ls->n == cap) {
			cap = cap ? cap * 2 : 64;
			ls->l = realloc(ls->l, cap * sizeof(*ls->l));
			if (!ls->l)
				abort();
		}
		ls->l[ls->n++] = p;
		p = nl ? nl + 1 : NULL;
	}
}

/*
 * The kernel's error: the last run of non-trace lines before the last
 * "processed N insns" (or the end), its first line the message.
 */
static void kernel_message(const char *log, struct verdict *v)
{
	char *text = xstrdup(log);
	struct lines ls;
	size_t end, i, first;
	char *blk;

	split_lines(text, &ls);
	end = ls.n;
	for (i = ls.n; i-- > 0;)
		if (starts(ls.l[i], "processed ")) {
			end = i;
			break;
		}
	while (end > 0 && stats_line(ls.l[end - 1]))
		end--;
	first = end;
	while (first > 0 && !trace_line(ls.l[first - 1]) && *ls.l[first - 1])
		first--;
	if (first == end && end > 0)
		first = end - 1;	/* in doubt: the last line before "processed" */
	if (first < end) {
		set_msg(v, ls.l[first], strlen(ls.l[first]));
		blk = xstrdup("");
		for (i = first; i < end; i++) {
			char *n = xasprintf("%s%s%s", blk, i > first ? "\n" : "", ls.l[i]);

			free(blk);
			blk = n;
		}
		free(v->block);
		v->block = blk;
	}
	free(ls.l);
	free(text);
}

/*
 * uxdp's message: the text after "insn N: " of the first checker line,
 * else the first line (a loader error; "prog 'NAME': " dropped), else the
 * kernel's rule (a kernel-style log).
 */
static void uxdp_message(const char *log, struct verdict *v)
{
	const char *p = log, *e;

	keep_log(v, log);
	while (p && *p) {
		e = strchrnul(p, '\n');
		if (starts(p, "insn ")) {
			const char *q = p + 5;

			while (isdigit((unsigned char)*q))
				q++;
			if (q > p + 5 && q[0] == ':' && q[1] == ' ') {
				set_msg(v, q + 2, e - q - 2);
				return;
			}
		}
		p = *e ? e + 1 : NULL;
	}
	if (strstr(log, "processed ")) {
		kernel_message(log, v);
		return;
	}
	set_msg(v, log, strchrnul(log, '\n') - log);
}

/* ---- libbpf messages ---------------------------------------------------- */

static char libbpf_first[MSG_SIZE];
static bool libbpf_capture;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[MSG_SIZE];
	const char *p = buf;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (getenv("UXDP_TEST_VERBOSE"))
		fprintf(stderr, "%s", buf);
	if (!libbpf_capture || libbpf_first[0] || level != LIBBPF_WARN)
		return 0;
	if (starts(p, "libbpf: "))
		p += 8;
	snprintf(libbpf_first, sizeof(libbpf_first), "%s", p);
	normalise(libbpf_first);
	strip_prefixes(libbpf_first);
	return 0;
}

static void libbpf_capture_start(void)
{
	libbpf_first[0] = '\0';
	libbpf_capture = true;
}

/* ---- the uxdp side, in a child ------------------------------------------- */

typedef int (*child_fn)(void *arg, char *log, size_t log_size);

/*
 * Run @fn in a forked child with a timeout; its return value and log come
 * back through a pipe. Sets v->st to V_CRASH / V_HANG when the child dies
 * or runs out of time, else V_ACCEPT (0) / V_REJECT with v->err.
 */
static void run_child(child_fn fn, void *arg, struct verdict *v, char *log, size_t log_size)
{
	struct timespec t0, t1;
	size_t got = 0, want = sizeof(int) + log_size;
	char *buf = malloc(want);
	int p[2], status, ret;
	pid_t pid;

	if (!buf || pipe(p))
		abort();
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		close(p[0]);
		memset(buf, 0, want);
		ret = fn(arg, buf + sizeof(int), log_size);
		memcpy(buf, &ret, sizeof(int));
		buf[want - 1] = '\0';
		for (size_t off = 0; off < want;) {
			ssize_t n = write(p[1], buf + off, want - off);

			if (n <= 0)
				_exit(3);
			off += n;
		}
		_exit(0);
	}
	close(p[1]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		long ms;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (long)opt_timeout * 1000 - ((t1.tv_sec - t0.tv_sec) * 1000 +
						 (t1.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0 || poll(&pfd, 1, (int)ms) == 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(p[0]);
			v->st = V_HANG;
			snprintf(v->msg, sizeof(v->msg), "no verdict after %u s", opt_timeout);
			free(buf);
			return;
		}
		n = read(p[0], buf + got, want - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) || got != want) {
		v->st = V_CRASH;
		if (WIFSIGNALED(status))
			snprintf(v->msg, sizeof(v->msg), "killed by signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
		else
			snprintf(v->msg, sizeof(v->msg), "exit status %d", WEXITSTATUS(status));
		free(buf);
		return;
	}
	memcpy(&ret, buf, sizeof(int));
	memcpy(log, buf + sizeof(int), log_size);
	log[log_size - 1] = '\0';
	v->err = ret;
	v->st = ret ? V_REJECT : V_ACCEPT;
	free(buf);
}

static int child_object(void *arg, char *log, size_t log_size)
{
	struct uxdp_bpf_object_open_opts o = { .sz = sizeof(o), .log_buf = log, .log_size = log_size };

	/* the child exits right after: the object is not closed */
	return uxdp_bpf_object_open(arg, &o) ? 0 : -(errno ?: EINVAL);
}

struct raw_arg {
	const struct bpf_insn *insns;
	unsigned int cnt;
	unsigned int attach;
	int frags;
};

static int child_raw(void *arg, char *log, size_t log_size)
{
	const struct raw_arg *a = arg;

	return vu_check_raw(a->insns, a->cnt, a->attach, a->frags, log, log_size);
}

static void uxdp_raw(const struct raw_arg *a, struct verdict *v)
{
	char *log = calloc(1, ULOG_SIZE);

	if (!log)
		abort();
	run_child(child_raw, (void *)a, v, log, ULOG_SIZE);
	if (v->st == V_REJECT)
		uxdp_message(log, v);
	free(log);
}

/* ---- the kernel side ------------------------------------------------------ */

static char *klog;

static void kernel_verdict(int err, struct verdict *v)
{
	v->err = err;
	v->st = err ? V_REJECT : V_ACCEPT;
	if (!err)
		return;
	keep_log(v, klog);
	kernel_message(klog, v);
	if (!v->msg[0] && libbpf_first[0])
		snprintf(v->msg, sizeof(v->msg), "%s", libbpf_first);
	if (!v->msg[0])
		snprintf(v->msg, sizeof(v->msg), "load failed: %s", strerror(-err));
}

static int kernel_raw_load(const struct bpf_insn *insns, unsigned int cnt, unsigned int attach,
			   __u32 flags, __u32 log_level)
{
	union bpf_attr attr;
	int fd, tries = 0;

	/*
	 * bpf(2) itself, not libbpf's bpf_prog_load(): this program links
	 * libuxdp's internals, whose bpf_prog_load() has the kernel's name.
	 * The attributes and the EAGAIN retries are libbpf's.
	 */
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = cnt;
	attr.license = (__u64)(unsigned long)"GPL";
	attr.expected_attach_type = attach;
	attr.prog_flags = flags;
	memcpy(attr.prog_name, "verdict", sizeof("verdict"));
	if (log_level) {
		attr.log_level = log_level;
		attr.log_buf = (__u64)(unsigned long)klog;
		attr.log_size = KLOG_SIZE;
		klog[0] = '\0';
	}
	do
		fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	while (fd < 0 && errno == EAGAIN && ++tries < 5);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

struct kraw_arg {
	const struct bpf_insn *insns;
	unsigned int cnt, attach;
	__u32 flags;
};

static int kraw_load(void *arg, __u32 log_level)
{
	const struct kraw_arg *a = arg;

	return kernel_raw_load(a->insns, a->cnt, a->attach, a->flags, log_level);
}

/* A fresh object with only @name autoloaded. */
static struct bpf_object *kernel_obj_load(const char *path, const char *name, __u32 log_level,
					  int *errp)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;

	if (!obj) {
		*errp = -errno;
		return NULL;
	}
	bpf_object__for_each_program(p, obj) {
		bool me = !strcmp(bpf_program__name(p), name);

		bpf_program__set_autoload(p, me);
		if (me && log_level) {
			klog[0] = '\0';
			bpf_program__set_log_buf(p, klog, KLOG_SIZE);
			bpf_program__set_log_level(p, log_level);
		}
	}
	*errp = bpf_object__load(obj);
	return obj;
}

struct kobj_arg {
	const char *path, *name;
};

static int kobj_load(void *arg, __u32 log_level)
{
	const struct kobj_arg *a = arg;
	int err;

	bpf_object__close(kernel_obj_load(a->path, a->name, log_level, &err));
	return err;
}

/* "processed N insns": how far the walk went, -1 if it did not start. */
static long processed_insns(const char *log)
{
	const char *p = log, *q = NULL;

	while ((p = strstr(p, "processed ")))
		q = p++;
	return q ? strtol(q + 10, NULL, 10) : -1;
}

#define BPF_LOG_STATS	4
#define LEVEL1_MAX_INSNS	200000

/*
 * The verdict at log_level BPF_LOG_STATS: the kernel's messages and
 * figures without the instruction trace, which at level 1 costs minutes
 * for a walk of a million instructions. A rejection is loaded again at
 * log_level 1 (the trace, up to LEVEL1_MAX_INSNS processed) and the
 * message taken from that log. A log that does not fit fails the load
 * with ENOSPC whatever the verdict (the rotating log keeps its tail): then
 * the verdict comes from a load without a log, the message from the tail.
 */
static void kernel_judge(int (*load)(void *arg, __u32 log_level), void *arg,
			 struct verdict *v)
{
	long done;
	char *keep;
	int err;

	libbpf_capture_start();
	err = load(arg, BPF_LOG_STATS);
	if (err == -ENOSPC)
		err = load(arg, 0);
	done = err ? processed_insns(klog) : -1;
	if (done >= 0 && done <= LEVEL1_MAX_INSNS) {
		keep = xstrdup(klog);
		if (load(arg, 1) != err)
			snprintf(klog, KLOG_SIZE, "%s", keep);
		free(keep);
	}
	libbpf_capture = false;
	kernel_verdict(err, v);
}

static void kernel_raw(const struct bpf_insn *insns, unsigned int cnt, unsigned int attach,
		       __u32 flags, struct verdict *v)
{
	struct kraw_arg a = { .insns = insns, .cnt = cnt, .attach = attach, .flags = flags };

	kernel_judge(kraw_load, &a, v);
}

static void kernel_obj_prog(const char *path, const char *name, struct verdict *v)
{
	struct kobj_arg a = { .path = path, .name = name };

	kernel_judge(kobj_load, &a, v);
}

/* ---- records and output ----------------------------------------------------- */

/*
 * Some kernel builds forbid single kfuncs outright: the sandboxed 6.18 build
 * of the CI machines refuses bpf_dynptr_slice_rdwr() with EPERM and "<kfunc>()
 * is not allowed" at the call, before looking at any argument. That is the
 * site's policy, not the verifier's rules, so such a program is skipped with
 * the kernel's message, not judged.
 */
static bool kernel_policy_reject(const struct verdict *k)
{
	static const char tail[] = "() is not allowed";
	size_t n = strlen(k->msg), t = sizeof(tail) - 1;

	return k->st == V_REJECT && k->err == -EPERM && n > t && !strcmp(k->msg + n - t, tail) &&
	       !memchr(k->msg, ' ', n - t);
}

static void classify(struct rec *r)
{
	if (!r->skip_why && r->u.st == V_ACCEPT && kernel_policy_reject(&r->k))
		r->skip_why = xasprintf("this kernel's build forbids it (EPERM: \"%s\"), "
					"a policy outside the verifier's rules", r->k.msg);
	if (r->skip_why)
		r->cls = C_SKIP;
	else if (r->u.st == V_CRASH)
		r->cls = C_CRASH;
	else if (r->u.st == V_HANG)
		r->cls = C_HANG;
	else if (r->u.st == V_UNKNOWN)
		r->cls = C_UNKNOWN;
	else if (r->k.st == V_ACCEPT)
		r->cls = r->u.st == V_ACCEPT ? C_AGREE_ACCEPT : C_KACCEPT_UREJECT;
	else if (r->u.st == V_ACCEPT)
		r->cls = C_KREJECT_UACCEPT;
	else
		r->cls = strcmp(r->k.msg, r->u.msg) ? C_MSG : C_AGREE_REJECT;
	if ((r->cls == C_KREJECT_UACCEPT || r->cls == C_KACCEPT_UREJECT) && known_gap(r->name))
		r->cls = C_KNOWN;
}

static void print_rec(const struct rec *r)
{
	printf("[%s] %s: ", r->group, r->name);
	switch (r->cls) {
	case C_AGREE_ACCEPT:
		printf("AGREE accept\n");
		break;
	case C_AGREE_REJECT:
		printf("AGREE reject \"%s\"\n", r->k.msg);
		break;
	case C_MSG:
		printf("MSG kernel:\"%s\" uxdp:\"%s\"\n", r->k.msg, r->u.msg);
		break;
	case C_KREJECT_UACCEPT:
		printf("DISAGREE kernel=reject(\"%s\") uxdp=accept\n", r->k.msg);
		break;
	case C_KACCEPT_UREJECT:
		printf("DISAGREE kernel=accept uxdp=reject(\"%s\")\n", r->u.msg);
		break;
	case C_CRASH:
	case C_HANG:
		printf("%s uxdp: %s (kernel=%s%s%s%s)\n", r->cls == C_CRASH ? "CRASH" : "HANG",
		       r->u.msg, vstate_str[r->k.st], r->k.st == V_REJECT ? "(\"" : "",
		       r->k.st == V_REJECT ? r->k.msg : "", r->k.st == V_REJECT ? "\")" : "");
		break;
	case C_UNKNOWN:
		printf("UNKNOWN kernel=%s uxdp: %s\n", vstate_str[r->k.st], r->u.msg);
		break;
	case C_SKIP:
		printf("SKIP %s\n", r->skip_why);
		break;
	case C_KNOWN:
		printf("KNOWN gap (%s): kernel=%s uxdp=%s%s%s%s\n", known_gap(r->name),
		       vstate_str[r->k.st], vstate_str[r->u.st], r->u.st == V_REJECT ? "(\"" : "",
		       r->u.st == V_REJECT ? r->u.msg : "", r->u.st == V_REJECT ? "\")" : "");
		break;
	default:
		break;
	}
}

static struct rec *add_rec(const char *group, const char *name, const char *kind)
{
	struct rec *r;

	if (nr_recs == cap_recs) {
		cap_recs = cap_recs ? cap_recs * 2 : 256;
		recs = realloc(recs, cap_recs * sizeof(*recs));
		if (!recs)
			abort();
	}
	r = &recs[nr_recs++];
	memset(r, 0, sizeof(*r));
	r->group = xstrdup(group);
	r->name = xstrdup(name);
	r->kind = xstrdup(kind);
	return r;
}

static void finish_rec(struct rec *r)
{
	classify(r);
	if (opt_verbose || !opt_mutate || r->cls != C_AGREE_ACCEPT || strcmp(r->kind, "mutant"))
		print_rec(r);
	/* the blocks and logs are kept for --json only */
	if (!opt_json) {
		free(r->k.block);
		free(r->u.block);
		free(r->k.log);
		free(r->u.log);
		r->k.block = r->u.block = r->k.log = r->u.log = NULL;
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_verdict(FILE *f, const char *key, const struct verdict *v)
{
	fprintf(f, "\"%s\": {\"verdict\": \"%s\", \"errno\": %d, \"msg\": ", key, vstate_str[v->st],
		-v->err);
	json_str(f, v->msg);
	fprintf(f, ", \"block\": ");
	json_str(f, v->block);
	fprintf(f, ", \"log\": ");
	json_str(f, v->log);
	fputc('}', f);
}

/* ---- summary --------------------------------------------------------------- */

struct tally {
	const char *key;
	unsigned int n;
};

static int tally_cmp(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	return x->n != y->n ? (x->n < y->n ? 1 : -1) : strcmp(x->key, y->key);
}

/* A message with its numbers as N, so one kind of error counts once. */
static char *msg_shape(const char *side, const char *msg)
{
	char *s = xasprintf("%s: %s", side, msg), *d = s, *p = s;

	for (; *p; p++) {
		if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)p[1]))
				p++;
			*d++ = 'N';
		} else {
			*d++ = *p;
		}
	}
	*d = '\0';
	return s;
}

#define NR_OPS	7	/* mutant kinds a..g */

static const char *const op_str[NR_OPS] = {
	"a check deleted", "b off by one", "c wrong register", "d JMP<->JMP32",
	"e signed<->unsigned", "f strict<->non-strict", "g JEQ<->JNE",
};

struct group_sum {
	const char *name;
	unsigned int c[NR_CLS], total, krej, urej;
	unsigned int op_n[NR_OPS], op_agree[NR_OPS];
	struct tally *top;
	unsigned int nr_top;
};

static void tally_add(struct group_sum *g, char *key)
{
	unsigned int i;

	for (i = 0; i < g->nr_top; i++)
		if (!strcmp(g->top[i].key, key)) {
			g->top[i].n++;
			free(key);
			return;
		}
	g->top = realloc(g->top, (g->nr_top + 1) * sizeof(*g->top));
	if (!g->top)
		abort();
	g->top[g->nr_top].key = key;
	g->top[g->nr_top++].n = 1;
}

static double pct(unsigned int a, unsigned int b)
{
	return b ? 100.0 * a / b : 100.0;
}

static unsigned int judged(const struct group_sum *g)
{
	return g->total - g->c[C_SKIP] - g->c[C_UNKNOWN] - g->c[C_KNOWN];
}

static unsigned int agreed(const struct group_sum *g)
{
	return g->c[C_AGREE_ACCEPT] + g->c[C_AGREE_REJECT] + g->c[C_MSG];
}

static struct group_sum *summarise(unsigned int *nr)
{
	struct group_sum *gs = NULL;
	unsigned int n = 0, i;
	size_t k;

	for (k = 0; k < nr_recs; k++) {
		const struct rec *r = &recs[k];
		struct group_sum *g = NULL;

		for (i = 0; i < n; i++)
			if (!strcmp(gs[i].name, r->group))
				g = &gs[i];
		if (!g) {
			gs = realloc(gs, (n + 1) * sizeof(*gs));
			if (!gs)
				abort();
			g = &gs[n++];
			memset(g, 0, sizeof(*g));
			g->name = r->group;
		}
		g->total++;
		g->c[r->cls]++;
		if (r->cls == C_SKIP || r->cls == C_UNKNOWN)
			continue;
		g->krej += r->k.st == V_REJECT;
		g->urej += r->u.st == V_REJECT;
		if (r->op >= 'a' && r->op < 'a' + NR_OPS) {
			g->op_n[r->op - 'a']++;
			g->op_agree[r->op - 'a'] += r->cls == C_AGREE_ACCEPT ||
						    r->cls == C_AGREE_REJECT || r->cls == C_MSG;
		}
		if (r->cls == C_KREJECT_UACCEPT)
			tally_add(g, msg_shape("kernel rejects, uxdp accepts", r->k.msg));
		else if (r->cls == C_KACCEPT_UREJECT)
			tally_add(g, msg_shape("uxdp rejects, kernel accepts", r->u.msg));
		else if (r->cls == C_CRASH || r->cls == C_HANG)
			tally_add(g, msg_shape(r->cls == C_CRASH ? "uxdp crash" : "uxdp hang", r->u.msg));
	}
	for (i = 0; i < n; i++)
		if (gs[i].nr_top)
			qsort(gs[i].top, gs[i].nr_top, sizeof(*gs[i].top), tally_cmp);
	*nr = n;
	return gs;
}

static void print_summary(const struct group_sum *gs, unsigned int n)
{
	unsigned int i, t, c;

	printf("\n== summary ==\n");
	for (i = 0; i < n; i++) {
		const struct group_sum *g = &gs[i];
		unsigned int both = g->c[C_AGREE_REJECT] + g->c[C_MSG];

		printf("[%s] %u programs: %u judged, %u kernel rejects, %u uxdp rejects; "
		       "verdict agreement %u/%u (%.1f %%), message agreement %u/%u both-reject (%.1f %%)\n",
		       g->name, g->total, judged(g), g->krej, g->urej, agreed(g), judged(g),
		       pct(agreed(g), judged(g)), g->c[C_AGREE_REJECT], both,
		       pct(g->c[C_AGREE_REJECT], both));
		printf("[%s]  ", g->name);
		for (c = 0; c < NR_CLS; c++)
			printf(" %s %u", cls_key[c], g->c[c]);
		printf("\n");
		for (c = 0; c < NR_OPS; c++)
			if (g->op_n[c])
				printf("[%s]   %-22s %5u mutants, verdict agreement %5.1f %%\n", g->name,
				       op_str[c], g->op_n[c], pct(g->op_agree[c], g->op_n[c]));
		for (t = 0; t < g->nr_top && t < 15; t++)
			printf("[%s]   %5u  %s\n", g->name, g->top[t].n, g->top[t].key);
	}
}

static int write_json(const char *path, const struct group_sum *gs, unsigned int n)
{
	FILE *f = fopen(path, "w");
	unsigned int i, c, t;
	size_t k;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\n\"groups\": [");
	for (i = 0; i < n; i++) {
		const struct group_sum *g = &gs[i];

		fprintf(f, "%s\n {\"group\": ", i ? "," : "");
		json_str(f, g->name);
		fprintf(f, ", \"programs\": %u, \"judged\": %u, \"kernel_rejects\": %u, "
			"\"uxdp_rejects\": %u, \"verdict_agreement_pct\": %.2f, "
			"\"message_agreement_pct\": %.2f", g->total, judged(g), g->krej, g->urej,
			pct(agreed(g), judged(g)),
			pct(g->c[C_AGREE_REJECT], g->c[C_AGREE_REJECT] + g->c[C_MSG]));
		for (c = 0; c < NR_CLS; c++)
			fprintf(f, ", \"%s\": %u", cls_key[c], g->c[c]);
		fprintf(f, ", \"by_kind\": {");
		for (c = 0, t = 0; c < NR_OPS; c++)
			if (g->op_n[c])
				fprintf(f, "%s\"%s\": {\"mutants\": %u, \"agree\": %u}", t++ ? ", " : "",
					op_str[c], g->op_n[c], g->op_agree[c]);
		fprintf(f, "}, \"top_disagreements\": [");
		for (t = 0; t < g->nr_top; t++) {
			fprintf(f, "%s{\"n\": %u, \"msg\": ", t ? ", " : "", g->top[t].n);
			json_str(f, g->top[t].key);
			fputc('}', f);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n],\n\"programs\": [");
	for (k = 0; k < nr_recs; k++) {
		const struct rec *r = &recs[k];

		fprintf(f, "%s\n {\"group\": ", k ? "," : "");
		json_str(f, r->group);
		fprintf(f, ", \"name\": ");
		json_str(f, r->name);
		fprintf(f, ", \"kind\": ");
		json_str(f, r->kind);
		fprintf(f, ", \"class\": \"%s\"", cls_key[r->cls]);
		if (r->skip_why) {
			fprintf(f, ", \"skip\": ");
			json_str(f, r->skip_why);
		} else {
			fprintf(f, ", ");
			json_verdict(f, "kernel", &r->k);
			fprintf(f, ", ");
			json_verdict(f, "uxdp", &r->u);
		}
		fputc('}', f);
	}
	fprintf(f, "\n]\n}\n");
	return fclose(f);
}

/* ---- ELF objects ------------------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void do_object(const char *path)
{
	char *ulog = calloc(1, ULOG_SIZE), failed[256] = "";
	struct verdict uv = { 0 };
	struct bpf_object *obj;
	struct bpf_program *p;
	bool after_fail = false;
	struct rec *r;

	if (!ulog)
		abort();
	run_child(child_object, (void *)path, &uv, ulog, ULOG_SIZE);
	if (uv.st == V_REJECT && starts(ulog, "prog '")) {
		const char *e = strchr(ulog + 6, '\'');

		if (e && (size_t)(e - ulog - 6) < sizeof(failed))
			snprintf(failed, sizeof(failed), "%.*s", (int)(e - ulog - 6), ulog + 6);
	}

	libbpf_capture_start();
	obj = bpf_object__open_file(path, NULL);
	libbpf_capture = false;
	if (!obj) {
		/* libbpf refuses the object itself: one record for the file */
		char *oname = xasprintf("%s:(object)", base_name(path));

		r = add_rec(opt_group, oname, "object");
		free(oname);
		klog[0] = '\0';
		kernel_verdict(-errno ?: -EINVAL, &r->k);
		r->u = uv;
		if (uv.st == V_REJECT)
			uxdp_message(ulog, &r->u);
		finish_rec(r);
		free(ulog);
		return;
	}
	bpf_object__for_each_program(p, obj) {
		const char *name = bpf_program__name(p);
		char *rname = xasprintf("%s:%s", base_name(path), name);

		r = add_rec(opt_group, rname, "object");
		free(rname);
		if (bpf_program__type(p) != BPF_PROG_TYPE_XDP) {
			r->skip_why = xasprintf("section '%s' is not an XDP program",
						bpf_program__section_name(p));
			finish_rec(r);
			continue;
		}
		kernel_obj_prog(path, name, &r->k);
		r->u.st = uv.st;
		r->u.err = uv.err;
		if (uv.st == V_CRASH || uv.st == V_HANG) {
			snprintf(r->u.msg, sizeof(r->u.msg), "%s", uv.msg);
		} else if (uv.st == V_REJECT && after_fail) {
			r->u.st = V_UNKNOWN;
			snprintf(r->u.msg, sizeof(r->u.msg), "not loaded: the object stopped at prog '%s'",
				 failed);
		} else if (uv.st == V_REJECT && failed[0] && strcmp(failed, name)) {
			r->u.st = V_ACCEPT;	/* loaded before the one refused */
		} else if (uv.st == V_REJECT) {
			uxdp_message(ulog, &r->u);
			after_fail = true;
		}
		finish_rec(r);
	}
	bpf_object__close(obj);
	free(ulog);
}

/* ---- conformance .data files ------------------------------------------------ */

struct data_case {
	char *asm_text, *raw, *mem, *options;
	bool has_error, unknown;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (!f)
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf = realloc(buf, len + n + 1);
		if (!buf)
			abort();
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	if (!buf)
		buf = xstrdup("");
	buf[len] = '\0';
	return buf;
}

/* Sections of the conformance format (tests/bpf/conformance.c describes it). */
static void data_parse(char *text, struct data_case *dc)
{
	static const char *const names[] = { "asm", "raw", "mem", "options" };
	char **slot[] = { &dc->asm_text, &dc->raw, &dc->mem, &dc->options };
	char **cur = NULL, *line, *save = NULL;
	size_t i;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (starts(line, "-- ")) {
			cur = NULL;
			for (i = 0; i < ARRAY_LEN(names); i++)
				if (!strcmp(line + 3, names[i])) {
					cur = slot[i];
					if (!*cur)
						*cur = xstrdup("");
				}
			if (!strcmp(line + 3, "error"))
				dc->has_error = true;
			else if (!cur && strcmp(line + 3, "result") && strcmp(line + 3, "abort") &&
				 strcmp(line + 3, "c") && strcmp(line + 3, "no register offset"))
				dc->unknown = true;
			continue;
		}
		if (cur) {
			char *n = xasprintf("%s%s\n", *cur, line);

			free(*cur);
			*cur = n;
		}
	}
}

/* -- raw: hex bytes, or 64-bit words 0x... (as conformance.c reads them). */
static int data_raw(const char *text, struct bpf_insn *out, unsigned int max)
{
	char *copy = xstrdup(text), *tok, *save = NULL;
	unsigned char *b = (unsigned char *)out;
	size_t len = 0, cap = (size_t)max * sizeof(*out);

	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (tok[0] == '#')
			break;
		if (starts(tok, "0x") && strlen(tok) > 4) {
			unsigned long long v = strtoull(tok, NULL, 16);

			if (len + 8 > cap)
				goto err;
			memcpy(b + len, &v, 8);
			len += 8;
		} else {
			if (len + 1 > cap)
				goto err;
			b[len++] = (unsigned char)strtoul(tok, NULL, 16);
		}
	}
	free(copy);
	return len % 8 ? -EINVAL : (int)(len / 8);
err:
	free(copy);
	return -E2BIG;
}

static bool has_word(const char *text, const char *word)
{
	char *copy = xstrdup(text), *tok, *save = NULL;
	bool found = false;

	for (tok = strtok_r(copy, " \t\n", &save); tok && !found; tok = strtok_r(NULL, " \t\n", &save))
		found = !strcmp(tok, word);
	free(copy);
	return found;
}

/* r1 as the base of a load, store or atomic. */
static bool uses_r1_mem(const struct bpf_insn *in, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		unsigned int cls = BPF_CLASS(in[i].code);

		if (cls == BPF_LDX && in[i].src_reg == BPF_REG_1)
			return true;
		if ((cls == BPF_ST || cls == BPF_STX) && in[i].dst_reg == BPF_REG_1)
			return true;
	}
	return false;
}

static void do_data(const char *path)
{
	static struct bpf_insn insns[65536];
	struct data_case dc = { 0 };
	char *text = slurp(path), err[512] = "", *group;
	bool xdp;
	struct rec *r;
	int n;

	if (!text) {
		fprintf(stderr, "%s: cannot read\n", path);
		return;
	}
	data_parse(text, &dc);
	if (opt_error_cases && !dc.has_error)
		goto out;
	xdp = dc.options && has_word(dc.options, "xdp");
	if (dc.unknown || (!dc.asm_text && !dc.raw)) {
		n = -EINVAL;
		snprintf(err, sizeof(err), "no program (empty or unknown section)");
	} else if (dc.asm_text) {
		n = vu_assemble(dc.asm_text, insns, ARRAY_LEN(insns), err, sizeof(err));
	} else {
		n = data_raw(dc.raw, insns, ARRAY_LEN(insns));
		if (n < 0)
			snprintf(err, sizeof(err), "bad -- raw section");
	}
	if (n == 0) {
		n = -EINVAL;
		snprintf(err, sizeof(err), "empty program");
	}
	group = xstrdup(opt_group);
	if (n > 0 && !xdp && (dc.mem || uses_r1_mem(insns, n))) {
		free(group);
		group = xasprintf("%s/r1-mem", opt_group);
	}
	r = add_rec(group, base_name(path), "data");
	free(group);
	if (n < 0) {
		normalise(err);
		r->skip_why = xasprintf("not a program: %s", err);
	} else {
		struct raw_arg a = { .insns = insns, .cnt = (unsigned int)n };

		if (dc.options && has_word(dc.options, "devmap"))
			a.attach = BPF_XDP_DEVMAP;
		kernel_raw(insns, n, a.attach, 0, &r->k);
		uxdp_raw(&a, &r->u);
	}
	finish_rec(r);
out:
	free(dc.asm_text);
	free(dc.raw);
	free(dc.mem);
	free(dc.options);
	free(text);
}

/* ---- mutants ----------------------------------------------------------------- */

/*
 * The kernel's maps of a loaded object recreated in uxdp (type, sizes,
 * flags, inner map shape, the contents of global data, frozen when
 * read-only to programs), so the kernel's instructions can be handed to
 * uxdp with each map fd replaced by the uxdp id.
 */
struct map_mirror {
	int fd[MAX_MAPS];
	int id[MAX_MAPS];
	unsigned int n;
};

/* @shape: the same map in an object not loaded (libbpf drops inner maps at load) */
static int mirror_one(const struct bpf_object *obj, const struct bpf_map *m,
		      const struct bpf_map *shape, struct map_mirror *mm)
{
	struct uxdp_bpf_map_create_opts o = { .sz = sizeof(o) };
	const struct bpf_map *inner = shape ? bpf_map__inner_map((struct bpf_map *)shape) : NULL;
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	int fd = bpf_map__fd(m), id, inner_id = 0;
	size_t vsz;
	void *val;

	if (fd < 0 || mm->n == MAX_MAPS || bpf_obj_get_info_by_fd(fd, &info, &len))
		return -EINVAL;
	if (inner) {
		struct uxdp_bpf_map_create_opts io = { .sz = sizeof(io),
			.map_flags = bpf_map__map_flags(inner) };

		inner_id = uxdp_bpf_map_create(bpf_map__type(inner), "inner",
					       bpf_map__key_size(inner), bpf_map__value_size(inner),
					       bpf_map__max_entries(inner), &io);
		if (inner_id < 0)
			return inner_id;
		o.inner_map_id = inner_id;
	}
	/* as requested: the kernel adds flags of its own (DEVMAP: BPF_F_RDONLY_PROG) */
	o.map_flags = bpf_map__map_flags(m);
	o.map_extra = info.map_extra;
	id = uxdp_bpf_map_create(info.type, info.name, info.key_size, info.value_size,
				 info.max_entries, &o);
	if (id < 0 && (o.map_flags & BPF_F_MMAPABLE)) {
		o.map_flags &= ~BPF_F_MMAPABLE;
		id = uxdp_bpf_map_create(info.type, info.name, info.key_size, info.value_size,
					 info.max_entries, &o);
	}
	if (inner_id > 0)
		uxdp_bpf_map_close(inner_id);
	if (id < 0)
		return id;
	/* the value BTF libbpf gave the kernel's map (a bpf_spin_lock in it) */
	if (bpf_map__btf_value_type_id(m) && bpf_object__btf(obj)) {
		int err = vu_map_check_btf(id, bpf_object__btf(obj), bpf_map__btf_value_type_id(m));

		if (err) {
			uxdp_bpf_map_close(id);
			return err;
		}
	}
	/* global data: the initial contents, as the verifier may read .rodata */
	if (info.type == BPF_MAP_TYPE_ARRAY && info.max_entries == 1 &&
	    bpf_map__initial_value((struct bpf_map *)m, &vsz)) {
		__u32 key = 0;

		val = calloc(1, info.value_size);
		if (val && !bpf_map_lookup_elem(fd, &key, val))
			uxdp_bpf_map_update_elem(id, &key, val, BPF_ANY);
		free(val);
	}
	if (o.map_flags & BPF_F_RDONLY_PROG)
		uxdp_bpf_map_freeze(id);
	mm->fd[mm->n] = fd;
	mm->id[mm->n++] = id;
	return 0;
}

static void mirror_free(struct map_mirror *mm)
{
	unsigned int i;

	for (i = 0; i < mm->n; i++)
		uxdp_bpf_map_close(mm->id[i]);
	mm->n = 0;
}

static bool is_ldimm64(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/* Replace the map fds of ld_imm64 by the mirrored uxdp ids. */
static int mirror_insns(const struct map_mirror *mm, struct bpf_insn *in, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i + 1 < n; i++) {
		if (!is_ldimm64(&in[i]))
			continue;
		if (in[i].src_reg == BPF_PSEUDO_MAP_FD || in[i].src_reg == BPF_PSEUDO_MAP_VALUE) {
			for (j = 0; j < mm->n && mm->fd[j] != in[i].imm; j++)
				;
			if (j == mm->n)
				return -ENOENT;
			in[i].imm = mm->id[j];
		}
		i++;
	}
	return 0;
}

/* Kfunc calls: the kernel's vmlinux BTF id becomes uxdp's id of that name. */
static int mirror_kfuncs(struct bpf_insn *in, unsigned int n)
{
	static struct btf *vmlinux;
	const struct btf_type *t;
	unsigned int i, id;

	for (i = 0; i < n; i++) {
		if (in[i].code != (BPF_JMP | BPF_CALL) || in[i].src_reg != BPF_PSEUDO_KFUNC_CALL ||
		    !in[i].imm)
			continue;
		if (!vmlinux)
			vmlinux = btf__load_vmlinux_btf();
		if (!vmlinux || libbpf_get_error(vmlinux)) {
			vmlinux = NULL;
			return -ENOENT;
		}
		t = btf__type_by_id(vmlinux, in[i].imm);
		id = t ? vu_kfunc_id(btf__name_by_offset(vmlinux, t->name_off)) : 0;
		if (!id)
			return -ENOENT;
		in[i].imm = (int)id;
	}
	return 0;
}

struct mutant {
	unsigned int at;	/* slot replaced */
	struct bpf_insn insn;
	char desc[96];
};

struct mutants {
	struct mutant *m;
	unsigned int n, cap;
};

static void mut_add(struct mutants *ms, unsigned int at, struct bpf_insn insn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void mut_add(struct mutants *ms, unsigned int at, struct bpf_insn insn, const char *fmt, ...)
{
	va_list ap;

	if (ms->n == ms->cap) {
		ms->cap = ms->cap ? ms->cap * 2 : 256;
		ms->m = realloc(ms->m, ms->cap * sizeof(*ms->m));
		if (!ms->m)
			abort();
	}
	ms->m[ms->n].at = at;
	ms->m[ms->n].insn = insn;
	va_start(ap, fmt);
	vsnprintf(ms->m[ms->n].desc, sizeof(ms->m[ms->n].desc), fmt, ap);
	va_end(ap);
	ms->n++;
}

static bool cond_jump(const struct bpf_insn *in)
{
	unsigned int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	if (cls != BPF_JMP && cls != BPF_JMP32)
		return false;
	switch (op) {
	case BPF_JEQ: case BPF_JGT: case BPF_JGE: case BPF_JSET: case BPF_JNE:
	case BPF_JSGT: case BPF_JSGE: case BPF_JLT: case BPF_JLE: case BPF_JSLT: case BPF_JSLE:
		return true;
	default:
		return false;
	}
}

/* Registers an instruction writes; 0 for those that end the backward walk. */
static unsigned int insn_writes(const struct bpf_insn *in)
{
	unsigned int cls = BPF_CLASS(in->code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LDX:
	case BPF_LD:
		return 1U << in->dst_reg;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC)
			return in->imm == BPF_CMPXCHG ? 1U : (in->imm & BPF_FETCH) ? 1U << in->src_reg : 0;
		return 0;
	default:
		return 0;
	}
}

static bool ends_block(const struct bpf_insn *in)
{
	unsigned int cls = BPF_CLASS(in->code);

	return cls == BPF_JMP || cls == BPF_JMP32;
}

/*
 * The nearest instruction before @i in the same straight line that sets
 * @reg: a `reg = K` or `reg += K` gets two mutants (K - 1, K + 1).
 */
static void mut_feeder(struct mutants *ms, const struct bpf_insn *in, const bool *second,
		       unsigned int i, unsigned int reg, const char *which)
{
	unsigned int j, lim = i > 64 ? i - 64 : 0;

	for (j = i; j-- > lim;) {
		const struct bpf_insn *f = &in[j];
		unsigned int cls = BPF_CLASS(f->code);
		struct bpf_insn t;

		if (second[j])
			continue;
		if (ends_block(f))
			return;
		if (!(insn_writes(f) & (1U << reg)))
			continue;
		if ((cls == BPF_ALU || cls == BPF_ALU64) && BPF_SRC(f->code) == BPF_K &&
		    (BPF_OP(f->code) == BPF_ADD || BPF_OP(f->code) == BPF_MOV) && f->off == 0) {
			t = *f;
			t.imm = f->imm - 1;
			mut_add(ms, j, t, "i%u b-feed%s-1 (i%u r%u %s %d)", i, which, j, reg,
				BPF_OP(f->code) == BPF_ADD ? "+=" : "=", t.imm);
			t.imm = f->imm + 1;
			mut_add(ms, j, t, "i%u b-feed%s+1 (i%u r%u %s %d)", i, which, j, reg,
				BPF_OP(f->code) == BPF_ADD ? "+=" : "=", t.imm);
		}
		return;
	}
}

/*
 * The register written last before @i other than @a and @b, skipping
 * r1-r5 written before a helper or bpf-to-bpf call (the call clobbers
 * them); r10 (or r1) if none.
 */
static unsigned int other_reg(const struct bpf_insn *in, const bool *second, unsigned int i,
			      unsigned int a, unsigned int b)
{
	unsigned int j, r, dead = 0;

	for (j = i; j-- > 0;) {
		unsigned int w;

		if (second[j])
			continue;
		if (in[j].code == (BPF_JMP | BPF_CALL)) {
			w = 1U;
			dead |= 0x3e;
		} else {
			w = insn_writes(&in[j]) & ~dead;
		}
		for (r = 0; r < 10; r++)
			if ((w & (1U << r)) && r != a && r != b)
				return r;
	}
	return a != 10 && b != 10 ? 10 : 1;
}

struct op_pair {
	unsigned int a, b;
};

static const struct op_pair swap_sign[] = {
	{ BPF_JGT, BPF_JSGT }, { BPF_JGE, BPF_JSGE }, { BPF_JLT, BPF_JSLT }, { BPF_JLE, BPF_JSLE },
}, swap_strict[] = {
	{ BPF_JGT, BPF_JGE }, { BPF_JLT, BPF_JLE }, { BPF_JSGT, BPF_JSGE }, { BPF_JSLT, BPF_JSLE },
}, swap_negate[] = {
	{ BPF_JEQ, BPF_JNE },
};

static int swapped(unsigned int op, const struct op_pair *t, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		if (t[k].a == op)
			return (int)t[k].b;
		if (t[k].b == op)
			return (int)t[k].a;
	}
	return -1;
}

static bool signed_op(unsigned int op)
{
	return op == BPF_JSGT || op == BPF_JSGE || op == BPF_JSLT || op == BPF_JSLE;
}

/*
 * Mutants of every conditional jump, in program order, per jump:
 *   a  the check deleted: ja +0 (always falls through), ja +off (always jumps)
 *   b  off by one: the jump's imm (JMP K) -1/+1, and the `rX = K` / `rX += K`
 *      nearest before it feeding the compared register(s) -1/+1
 *   c  wrong register: src (JMP X) or dst (JMP K) replaced by the register
 *      written last before the jump
 *   d  JMP <-> JMP32
 *   e  signed <-> unsigned (JGT <-> JSGT, ...)
 *   f  strict <-> non-strict (JGT <-> JGE, ...)
 *   g  JEQ <-> JNE
 */
static void mutate_prog(const struct bpf_insn *in, unsigned int n, struct mutants *ms)
{
	bool *second = calloc(n + 1, sizeof(bool));
	unsigned int i;

	if (!second)
		abort();
	for (i = 0; i + 1 < n; i++)
		if (is_ldimm64(&in[i]))
			second[++i] = true;
	for (i = 0; i < n; i++) {
		const struct bpf_insn *j = &in[i];
		unsigned int op = BPF_OP(j->code), cls = BPF_CLASS(j->code);
		bool k = BPF_SRC(j->code) == BPF_K;
		struct bpf_insn t;
		int s;

		if (second[i] || !cond_jump(j))
			continue;
		t = (struct bpf_insn){ .code = BPF_JMP | BPF_JA };
		mut_add(ms, i, t, "i%u a-fall (ja +0)", i);
		t.off = j->off;
		mut_add(ms, i, t, "i%u a-jump (ja %+d)", i, j->off);
		if (k) {
			t = *j;
			t.imm = j->imm - 1;
			mut_add(ms, i, t, "i%u b-imm-1 (%d)", i, t.imm);
			t.imm = j->imm + 1;
			mut_add(ms, i, t, "i%u b-imm+1 (%d)", i, t.imm);
		}
		mut_feeder(ms, in, second, i, j->dst_reg, "-dst");
		if (!k)
			mut_feeder(ms, in, second, i, j->src_reg, "-src");
		t = *j;
		if (k) {
			t.dst_reg = other_reg(in, second, i, j->dst_reg, j->dst_reg);
			mut_add(ms, i, t, "i%u c-dst r%u->r%u", i, j->dst_reg, t.dst_reg);
		} else {
			t.src_reg = other_reg(in, second, i, j->dst_reg, j->src_reg);
			mut_add(ms, i, t, "i%u c-src r%u->r%u", i, j->src_reg, t.src_reg);
		}
		t = *j;
		t.code = (j->code & ~0x07) | (cls == BPF_JMP ? BPF_JMP32 : BPF_JMP);
		mut_add(ms, i, t, "i%u d-%s", i, cls == BPF_JMP ? "jmp32" : "jmp64");
		if ((s = swapped(op, swap_sign, ARRAY_LEN(swap_sign))) >= 0) {
			t = *j;
			t.code = (j->code & ~0xf0) | s;
			mut_add(ms, i, t, "i%u e-%s", i, signed_op(op) ? "unsigned" : "signed");
		}
		if ((s = swapped(op, swap_strict, ARRAY_LEN(swap_strict))) >= 0) {
			t = *j;
			t.code = (j->code & ~0xf0) | s;
			mut_add(ms, i, t, "i%u f-%s", i,
				op == BPF_JGT || op == BPF_JLT || op == BPF_JSGT || op == BPF_JSLT ?
				"non-strict" : "strict");
		}
		if ((s = swapped(op, swap_negate, ARRAY_LEN(swap_negate))) >= 0) {
			t = *j;
			t.code = (j->code & ~0xf0) | s;
			mut_add(ms, i, t, "i%u g-negate", i);
		}
	}
	free(second);
}

static void do_mutants_prog(const char *path, struct bpf_object *obj, struct bpf_program *p,
			    struct bpf_object *shapes)
{
	const char *name = bpf_program__name(p);
	unsigned int n = bpf_program__insn_cnt(p), i, pick, attach;
	struct bpf_insn *kin, *uin;
	struct map_mirror mm = { 0 };
	struct mutants ms = { 0 };
	struct bpf_map *m;
	__u32 flags = bpf_program__flags(p);
	struct rec *r;
	char *rname;
	int frags;

	/* the unmutated instructions, counted apart from the mutants */
	{
		char *bgroup = xasprintf("%s/base", opt_group);

		rname = xasprintf("%s:%s", base_name(path), name);
		r = add_rec(bgroup, rname, "base");
		free(rname);
		free(bgroup);
	}
	bpf_object__for_each_map(m, obj) {
		int err = mirror_one(obj, m, bpf_object__find_map_by_name(shapes, bpf_map__name(m)),
				     &mm);

		if (err) {
			r->skip_why = xasprintf("map '%s' cannot be recreated in uxdp: %s",
						bpf_map__name(m), strerror(-err));
			finish_rec(r);
			mirror_free(&mm);
			return;
		}
	}
	kin = malloc((size_t)n * sizeof(*kin));
	uin = malloc((size_t)n * sizeof(*uin));
	if (!kin || !uin)
		abort();
	memcpy(kin, bpf_program__insns(p), (size_t)n * sizeof(*kin));
	memcpy(uin, kin, (size_t)n * sizeof(*uin));
	if (mirror_insns(&mm, uin, n)) {
		r->skip_why = xasprintf("an ld_imm64 names a map fd the object does not hold");
		finish_rec(r);
		goto out;
	}
	if (mirror_kfuncs(uin, n)) {
		r->skip_why = xasprintf("a kfunc uxdp does not have");
		finish_rec(r);
		goto out;
	}
	attach = bpf_program__expected_attach_type(p);
	frags = !!(flags & BPF_F_XDP_HAS_FRAGS);
	{
		struct raw_arg a = { .insns = uin, .cnt = n, .attach = attach, .frags = frags };

		kernel_raw(kin, n, attach, flags, &r->k);
		uxdp_raw(&a, &r->u);
		finish_rec(r);
	}
	if (r->k.st != V_ACCEPT) {
		printf("[%s] %s:%s: no mutants (the kernel refuses the unmutated instructions)\n",
		       opt_group, base_name(path), name);
		goto out;
	}
	mutate_prog(kin, n, &ms);
	pick = ms.n < opt_max_mutants ? ms.n : opt_max_mutants;
	for (i = 0; i < pick; i++) {
		/* spread evenly over the program when capped: same set every run */
		const struct mutant *mu = &ms.m[(size_t)i * ms.n / pick];
		struct bpf_insn ksave = kin[mu->at], usave = uin[mu->at];
		struct raw_arg a = { .insns = uin, .cnt = n, .attach = attach, .frags = frags };

		rname = xasprintf("%s:%s:%s", base_name(path), name, mu->desc);
		r = add_rec(opt_group, rname, "mutant");
		free(rname);
		r->op = mu->desc[strcspn(mu->desc, " ") + 1];
		kin[mu->at] = mu->insn;
		uin[mu->at] = mu->insn;
		kernel_raw(kin, n, attach, flags, &r->k);
		uxdp_raw(&a, &r->u);
		kin[mu->at] = ksave;
		uin[mu->at] = usave;
		finish_rec(r);
	}
	printf("[%s] %s:%s: %u mutants of %u generated (%u insns)\n", opt_group, base_name(path),
	       name, pick, ms.n, n);
out:
	free(ms.m);
	free(kin);
	free(uin);
	mirror_free(&mm);
}

static void do_mutants(const char *path)
{
	struct bpf_object *names = bpf_object__open_file(path, NULL);
	struct bpf_program *np;

	if (!names) {
		printf("[%s] %s: no mutants (libbpf cannot open it)\n", opt_group, base_name(path));
		return;
	}
	bpf_object__for_each_program(np, names) {
		const char *name = bpf_program__name(np);
		struct bpf_object *obj;
		struct bpf_program *p;
		int err;

		if (bpf_program__type(np) != BPF_PROG_TYPE_XDP)
			continue;
		obj = kernel_obj_load(path, name, 0, &err);
		p = obj ? bpf_object__find_program_by_name(obj, name) : NULL;
		if (err || !p)
			printf("[%s] %s:%s: no mutants (the kernel refuses the program: %s)\n",
			       opt_group, base_name(path), name, strerror(-err));
		else
			do_mutants_prog(path, obj, p, names);
		bpf_object__close(obj);
	}
	bpf_object__close(names);
}

/* ---- main ------------------------------------------------------------------------ */

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static void do_file(const char *path)
{
	if (ends_with(path, ".data"))
		do_data(path);
	else if (opt_mutate)
		do_mutants(path);
	else
		do_object(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void do_path(const char *path)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d;

	if (stat(path, &st)) {
		struct rec *r = add_rec(opt_group, path, "input");

		r->skip_why = xasprintf("not found: %s", strerror(errno));
		finish_rec(r);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		do_file(path);
		return;
	}
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!ends_with(de->d_name, ".o") && !ends_with(de->d_name, ".data"))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names)
			abort();
		names[n++] = xasprintf("%s/%s", path, de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		do_file(names[i]);
		free(names[i]);
	}
	free(names);
}

/* r0 = XDP_PASS; exit: whether this kernel loads XDP programs at all. */
static int kernel_probe(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return kernel_raw_load(insns, ARRAY_LEN(insns), 0, 0, 0);
}

static void usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [--group NAME] [--json FILE] [--strict-msg] [--mutate] [--max-mutants N]\n"
		"          [--timeout SEC] [--error-cases|--all-cases] [-v] (FILE.o|FILE.data|DIR)...\n"
		"  --group NAME and --error-cases (only .data cases with an -- error section)\n"
		"  apply to the inputs after them; DIRs give their *.o and *.data\n",
		argv0);
}

int main(int argc, char **argv)
{
	struct group_sum *gs;
	unsigned int ng, i, inputs = 0;
	bool fail = false;
	size_t k;
	int a, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_print);
	klog = calloc(1, KLOG_SIZE);
	if (!klog)
		return 1;
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--json") && a + 1 < argc)
			opt_json = argv[++a];
		else if (!strcmp(argv[a], "--known") && a + 1 < argc && strchr(argv[a + 1], '=') &&
			 nr_known < MAX_KNOWN) {
			char *eq = strchr(argv[++a], '=');

			*eq = '\0';
			known_obj[nr_known] = argv[a];
			known_why[nr_known++] = eq + 1;
		} else if (!strcmp(argv[a], "--strict-msg"))
			opt_strict_msg = true;
		else if (!strcmp(argv[a], "--mutate"))
			opt_mutate = true;
		else if (!strcmp(argv[a], "-v"))
			opt_verbose = true;
		else if (!strcmp(argv[a], "--max-mutants") && a + 1 < argc)
			opt_max_mutants = (unsigned int)strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--timeout") && a + 1 < argc)
			opt_timeout = (unsigned int)strtoul(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--group") && a + 1 < argc)
			a++;
		else if (!strcmp(argv[a], "--error-cases") || !strcmp(argv[a], "--all-cases"))
			;
		else if (argv[a][0] == '-' || !opt_timeout || !opt_max_mutants)
			return usage(argv[0]), 2;
		else
			inputs++;
	}
	if (!inputs)
		return usage(argv[0]), 2;
	err = kernel_probe();
	if (err) {
		printf("SKIP: the kernel cannot load an XDP program (%s): the verdict differential needs root or CAP_BPF+CAP_NET_ADMIN and the bpf syscall\n",
		       strerror(-err));
		return SKIP;
	}
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--json") || !strcmp(argv[a], "--max-mutants") ||
		    !strcmp(argv[a], "--timeout") || !strcmp(argv[a], "--known"))
			a++;
		else if (!strcmp(argv[a], "--group"))
			opt_group = argv[++a];
		else if (!strcmp(argv[a], "--error-cases"))
			opt_error_cases = true;
		else if (!strcmp(argv[a], "--all-cases"))
			opt_error_cases = false;
		else if (argv[a][0] != '-')
			do_path(argv[a]);
	}
	gs = summarise(&ng);
	print_summary(gs, ng);
	for (i = 0; i < ng; i++)
		fail |= agreed(&gs[i]) != judged(&gs[i]) ||
			(opt_strict_msg && gs[i].c[C_MSG]);
	if (opt_json && write_json(opt_json, gs, ng))
		fail = true;
	for (i = 0; i < ng; i++) {
		for (k = 0; k < gs[i].nr_top; k++)
			free((char *)gs[i].top[k].key);
		free(gs[i].top);
	}
	free(gs);
	for (k = 0; k < nr_recs; k++) {
		free(recs[k].group);
		free(recs[k].name);
		free(recs[k].kind);
		free(recs[k].skip_why);
		free(recs[k].k.block);
		free(recs[k].u.block);
		free(recs[k].k.log);
		free(recs[k].u.log);
	}
	free(recs);
	free(klog);
	printf("%s\n", fail ? "FAIL: verdicts differ" : "PASS: every verdict agrees");
	return fail ? 1 : 0;
}
