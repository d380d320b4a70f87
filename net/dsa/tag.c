// SPDX-License-Identifier: GPL-2.0
/*
 * Tag protocol registry: the taggers of DSA_TAGGERS() (include/net/dsa.h),
 * one line each, looked up by name for `link add ... type dsa-switch tag
 * NAME`.
 *
 * Kernel: net/dsa/tag.c dsa_tag_driver_get_by_name(), dsa_tag_protocol_to_str()
 */
#include <stdio.h>
#include <string.h>

#include <net/dsa.h>

static const struct dsa_device_ops *const dsa_tag_drivers[] = {
#define __DSA_TAGGER(name) &name##_netdev_ops,
	DSA_TAGGERS(__DSA_TAGGER)
#undef __DSA_TAGGER
};

const struct dsa_device_ops *dsa_tag_driver_get_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(dsa_tag_drivers) / sizeof(dsa_tag_drivers[0]); i++)
		if (!strcmp(dsa_tag_drivers[i]->name, name))
			return dsa_tag_drivers[i];
	return NULL;
}

#define NR_DSA_TAGGERS	(sizeof(dsa_tag_drivers) / sizeof(dsa_tag_drivers[0]))

const char *const *dsa_tag_name_list(void)
{
	static const char *names[NR_DSA_TAGGERS + 1];

	for (size_t i = 0; !names[0] && i < NR_DSA_TAGGERS; i++)
		names[NR_DSA_TAGGERS - 1 - i] = dsa_tag_drivers[NR_DSA_TAGGERS - 1 - i]->name;
	return names;
}

const char *dsa_tag_names(void)
{
	static char list[NR_DSA_TAGGERS * 16];
	const char *const *n;
	size_t len = 0;

	for (n = dsa_tag_name_list(); !list[0] && *n; n++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s",
				n == dsa_tag_name_list() ? "" : ", ", *n);
	return list;
}
