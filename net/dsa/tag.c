// SPDX-License-Identifier: GPL-2.0
/*
 * Tag protocol registry: the taggers of DSA_TAGGERS() (include/net/dsa.h),
 * one line each, looked up by name for `link add ... type dsa-switch tag
 * NAME`.
 *
 * Kernel: net/dsa/tag.c dsa_tag_driver_get_by_name(), dsa_tag_protocol_to_str()
 */
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

const char *dsa_tag_names(void)
{
	return "sja1105, dsa, edsa, ocelot-8021q";
}
