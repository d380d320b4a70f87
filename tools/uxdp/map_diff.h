/* SPDX-License-Identifier: GPL-2.0 */
/* What a run changed in the script's maps (map_diff.c), for `stats maps`. */
#ifndef _UXDP_TOOLS_MAP_DIFF_H
#define _UXDP_TOOLS_MAP_DIFF_H

/* Before a run: copy every map of the script's objects. */
void map_diff_begin(void);
/* After it: compare, keep the changes for map_diff_print(). */
void map_diff_end(void);
/* Print the last run's changes (text) and add "map_changes" (-j). */
void map_diff_print(void);
/* End of a script. */
void map_diff_free(void);

#endif
