/* The processes of one job, wherever they went: each child is started with a tag in its
 * environment (GRAPHMEND_JOB=<tag>), which every process it starts inherits, also one that
 * leaves the job's process group and session (`subprocess.Popen(..., start_new_session=True)`)
 * and keeps the job's pipes open. Killing the tagged processes ends them all, as a cgroup
 * would, without one. Linux: /proc is read; elsewhere only the process group is killed. */
#ifndef GM_SERVER_PROFILE_PROCESS_TAG_H
#define GM_SERVER_PROFILE_PROCESS_TAG_H

#include <stddef.h>

#define GM_PROCESS_TAG_VARIABLE "GRAPHMEND_JOB"
#define GM_PROCESS_TAG_SIZE 64

/* A tag no other job of any graphmend process has: "<pid>-<counter>-<time>", as
 * "GRAPHMEND_JOB=..." into entry (an environment entry). */
void gm_process_tag_new(char entry[GM_PROCESS_TAG_SIZE]);

/* Sends SIGKILL to every process of this user whose environment holds entry (as made by
 * gm_process_tag_new), and returns how many it signalled. */
size_t gm_process_tag_kill(const char *entry);

#endif
