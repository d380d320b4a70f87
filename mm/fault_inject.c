// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation fault injection for the slab and page allocators: a random
 * failure rate and a one-shot "fail the n-th call" countdown per site, set
 * from code or from UXDP_FAULT at start-up (format in <linux/slab.h>). Used
 * by tests to prove that bulk allocation failures leak nothing.
 *
 * Kernel: lib/fault-inject.c should_fail(), mm/failslab.c, mm/fail_page_alloc.c
 * Differs: configured by a function call or one environment variable instead
 *	    of debugfs; the random stream is per thread (xorshift).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/printk.h>
#include <linux/slab.h>

struct fault_attr {
	unsigned int num, den;	/* probability num/den, 0 = off */
	long nth;		/* countdown to the one failing call, 0 = off */
	unsigned long injected;
};

static struct fault_attr fault_attrs[UXDP_FAULT_NR];
int uxdp_fault_armed;

static const char *const fault_site_names[UXDP_FAULT_NR] = {
	[UXDP_FAULT_SLAB] = "slab",
	[UXDP_FAULT_PAGE] = "page",
};

static void fault_rearm(void)
{
	int armed = 0;

	for (int i = 0; i < UXDP_FAULT_NR; i++)
		if (fault_attrs[i].num || __atomic_load_n(&fault_attrs[i].nth, __ATOMIC_RELAXED))
			armed = 1;
	WRITE_ONCE(uxdp_fault_armed, armed);
}

void uxdp_fault_set(enum uxdp_fault_site site, unsigned int num, unsigned int den)
{
	if (site >= UXDP_FAULT_NR)
		return;
	fault_attrs[site].num = den ? num : 0;
	fault_attrs[site].den = den;
	fault_rearm();
}

void uxdp_fault_fail_nth(enum uxdp_fault_site site, unsigned int nth)
{
	if (site >= UXDP_FAULT_NR)
		return;
	__atomic_store_n(&fault_attrs[site].nth, (long)nth, __ATOMIC_RELAXED);
	fault_rearm();
}

void uxdp_fault_clear(void)
{
	for (int i = 0; i < UXDP_FAULT_NR; i++) {
		fault_attrs[i].num = 0;
		__atomic_store_n(&fault_attrs[i].nth, 0, __ATOMIC_RELAXED);
	}
	fault_rearm();
}

unsigned long uxdp_fault_injected(enum uxdp_fault_site site)
{
	if (site >= UXDP_FAULT_NR)
		return 0;
	return __atomic_load_n(&fault_attrs[site].injected, __ATOMIC_RELAXED);
}

static u32 fault_random(void)
{
	static __thread u64 state;

	if (!state)
		state = 0x9e3779b97f4a7c15ULL ^ (u64)(unsigned long)&state;
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (u32)(state >> 32);
}

bool __should_fail(enum uxdp_fault_site site)
{
	struct fault_attr *attr = &fault_attrs[site];
	bool fail = false;
	long nth;

	nth = __atomic_load_n(&attr->nth, __ATOMIC_RELAXED);
	if (nth > 0) {
		/* Exactly one caller sees the countdown go from 1 to 0. */
		if (__atomic_sub_fetch(&attr->nth, 1, __ATOMIC_RELAXED) == 0) {
			fail = true;
			fault_rearm();
		}
	}
	if (!fail && attr->num && fault_random() % attr->den < attr->num)
		fail = true;
	if (fail)
		__atomic_fetch_add(&attr->injected, 1, __ATOMIC_RELAXED);
	return fail;
}

static int fault_parse_one(const char *item, size_t len,
			   struct fault_attr *attrs)
{
	char buf[64], *colon, *end;
	unsigned long a, b;
	int site = -1;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, item, len);
	buf[len] = '\0';
	colon = strchr(buf, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	for (int i = 0; i < UXDP_FAULT_NR; i++)
		if (!strcmp(buf, fault_site_names[i]))
			site = i;
	if (site < 0)
		return -EINVAL;
	if (!strncmp(colon + 1, "nth=", 4)) {
		a = strtoul(colon + 5, &end, 10);
		if (end == colon + 5 || *end)
			return -EINVAL;
		attrs[site].nth = (long)a;
		return 0;
	}
	a = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || *end != '/')
		return -EINVAL;
	b = strtoul(end + 1, &end, 10);
	if (!b || *end || a > b)
		return -EINVAL;
	attrs[site].num = (unsigned int)a;
	attrs[site].den = (unsigned int)b;
	return 0;
}

int uxdp_fault_parse(const char *spec)
{
	struct fault_attr attrs[UXDP_FAULT_NR] = {};
	const char *p = spec;

	if (!spec)
		return -EINVAL;
	while (*p) {
		size_t len = strcspn(p, ",");
		int err = fault_parse_one(p, len, attrs);

		if (err)
			return err;
		p += len;
		if (*p == ',')
			p++;
	}
	for (int i = 0; i < UXDP_FAULT_NR; i++) {
		fault_attrs[i].num = attrs[i].num;
		fault_attrs[i].den = attrs[i].den;
		__atomic_store_n(&fault_attrs[i].nth, attrs[i].nth, __ATOMIC_RELAXED);
	}
	fault_rearm();
	return 0;
}

__attribute__((constructor)) static void fault_init_env(void)
{
	const char *spec = getenv("UXDP_FAULT");

	if (spec && *spec && uxdp_fault_parse(spec))
		pr_warn("UXDP_FAULT: cannot parse '%s', fault injection off\n", spec);
}
