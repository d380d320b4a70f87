// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: object loading. The input is an ELF file (seeds: the
 * examples/progs objects and the loader's test objects of
 * tests/bpf/differential: CO-RE records of every kind, BTF with anonymous
 * unions, bitfields, flavours, mixed objects, custom sections); it is
 * opened with uxdp_bpf_object_open() through a memfd, custom sections as
 * XDP, CO-RE against uxdp's built-in BTF. Whatever opens has its loaded
 * programs run once over a small packet (mutated objects carry mutated
 * programs the checker accepted), and after uxdp_bpf_object_close() no map
 * may be left alive.
 *
 * Kernel: tools/lib/bpf/libbpf.c (object reading), kernel/bpf/syscall.c
 *	   bpf_prog_load()
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uxdp/uxdp_bpf.h>

#include "fuzz.h"

/*
 * An object may declare maps of any size, as in the kernel (where memcg
 * limits them). Allocations over 256 MiB fail (NULL, so map creation is
 * -ENOMEM) instead of ending the run as an out-of-memory report.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1:max_allocation_size_mb=256";
}

static int memfd = -1;
static char memfd_path[64];
static char log_buf[4096];

static int fuzz_quiet(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uxdp_set_print(fuzz_quiet);
	memfd = memfd_create("fuzz-object", MFD_CLOEXEC);
	if (memfd < 0)
		fuzz_bug("memfd_create: %s", strerror(errno));
	snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	return 0;
}

void fuzz_cleanup(void)
{
	close(memfd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct uxdp_bpf_object_open_opts opts = {
		.sz = sizeof(opts), .log_buf = log_buf, .log_size = sizeof(log_buf),
		.xdp_any = true,
#ifdef UXDP_CORE_BTF
		.btf_custom_path = UXDP_CORE_BTF,
#endif
	};
	static const uint8_t pkt[64] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1,
					 0x08, 0x00, 0x45, 0x00, 0x00, 50 };
	struct uxdp_bpf_object *obj;
	unsigned int i;
	int alive;

	if (size > (1U << 20))
		return 0;
	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		fuzz_bug("memfd write: %s", strerror(errno));
	alive = uxdp_bpf_map_alive_count();
	obj = uxdp_bpf_object_open(memfd_path, &opts);
	if (!obj) {
		fuzz_assert(errno == EINVAL || errno == EOPNOTSUPP || errno == EACCES ||
			    errno == ENOMEM || errno == E2BIG || errno == ENOENT ||
			    errno == EPERM || errno == ENOTSUP || errno == ENOSPC ||
			    errno == EFAULT || errno == EBADF || errno == ESRCH ||
			    errno == EPROTO || errno == 524 /* ENOTSUPP */,
			    "open: errno %d (%s)", errno, log_buf);
		fuzz_assert(uxdp_bpf_map_alive_count() == alive, "maps leaked by a failed open");
		return 0;
	}
	for (i = 0; i < uxdp_bpf_object_prog_cnt(obj); i++) {
		struct uxdp_bpf_test_run_opts topts = {
			.sz = sizeof(topts), .data_in = pkt, .data_size_in = sizeof(pkt), .repeat = 1,
		};
		struct uxdp_bpf_prog_desc desc;
		int err;

		if (uxdp_bpf_object_prog(obj, i, &desc))
			fuzz_bug("prog %u of %u", i, uxdp_bpf_object_prog_cnt(obj));
		if (!desc.loaded)
			continue;
		err = uxdp_bpf_prog_test_run(desc.id, &topts);
		/* DEVMAP/CPUMAP programs are refused by test_run, as in the kernel */
		fuzz_assert(!err || err == -EINVAL || err == -ENOMEM, "test run %s: %d",
			    desc.name, err);
	}
	uxdp_bpf_object_close(obj);
	fuzz_assert(uxdp_bpf_map_alive_count() == alive, "maps leaked by close");
	return 0;
}
