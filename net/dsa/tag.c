// SPDX-License-Identifier: GPL-2.0
/*
 * Tag protocol registry: the taggers of DSA_TAGGERS() (include/net/dsa.h),
 * one line each, looked up by name for `link add ... type dsa-switch tag
 * NAME`.
 *
 * Kernel: net/dsa/tag.c dsa_tag_driver_get_by_name(), dsa_tag_protocol_to_str()
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <net/dsa.h>

static const struct dsa_device_ops *const dsa_tag_drivers[] = {
#define __DSA_TAGGER(stem, proto, value) &stem##_netdev_ops,
	DSA_TAGGERS(__DSA_TAGGER)
#undef __DSA_TAGGER
};

const struct dsa_device_ops *dsa_tag_driver_get_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(dsa_tag_drivers); i++)
		if (!strcmp(dsa_tag_drivers[i]->name, name))
			return dsa_tag_drivers[i];
	return NULL;
}

static const char *dsa_tag_names_list[ARRAY_SIZE(dsa_tag_drivers) + 1];
static char dsa_tag_names_buf[256];
static pthread_once_t dsa_tag_names_once = PTHREAD_ONCE_INIT;

static void dsa_tag_names_build(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dsa_tag_drivers); i++) {
		dsa_tag_names_list[i] = dsa_tag_drivers[i]->name;
		n += snprintf(dsa_tag_names_buf + n, sizeof(dsa_tag_names_buf) - n, "%s%s",
			      i ? ", " : "", dsa_tag_drivers[i]->name);
	}
}

const char *const *dsa_tag_name_list(void)
{
	pthread_once(&dsa_tag_names_once, dsa_tag_names_build);
	return dsa_tag_names_list;
}

const char *dsa_tag_names(void)
{
	pthread_once(&dsa_tag_names_once, dsa_tag_names_build);
	return dsa_tag_names_buf;
}
