/*
 * options.h - the runtime's options, one table for both sides.
 *
 * cpperf-record parses its command line with this table and passes every
 * option to the preloaded runtime through its environment twin (CPPERF_*);
 * the runtime reads the same variables back with the same table.  Batch
 * scripts and srun can therefore set the variables directly.
 */
#ifndef CPPERF_OPTIONS_H
#define CPPERF_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum opt_call_graph { CG_DWARF, CG_FP, CG_NONE };
enum opt_backend { BACKEND_PERF, BACKEND_PAPI };
enum opt_merge { MERGE_NONE, MERGE_MPI };

#define OPT_DEFAULT_FREQ 1000
#define OPT_DEFAULT_STACK 16384
#define OPT_MAX_STACK 65528	/* the kernel's limit for sample_stack_user */
#define OPT_MAX_MMAP_PAGES (1u << 18)	/* 1 GiB of 4 KiB pages per thread */
#define OPT_CP_FNS 8		/* functions zeroing can follow (PROF_CP_FNS) */
#define OPT_DEFAULT_CP_WARMUP 1.0
#define OPT_DEFAULT_CHECKPOINT 60.0	/* docs/record.md says why */
#define OPT_DEFAULT_CP_BUDGET (1ull << 20)	/* docs/critical-path.md "Budget" */
#define OPT_DEFAULT_RARE_PATHS 5e-4	/* 0.05 %: docs/record.md "Rare call paths" */
#define OPT_MIN_CP_BUDGET 1024ull
#define OPT_DEFAULT_MERGE_TIMEOUT 5.0	/* docs/record.md "Merging at the end" */
/* The experiment holds the command line: private by default, the group's
 * to read with --group-readable (docs/record.md "Experiment directory");
 * files as common/profile.h's PROFILE_MODE and PROFILE_GROUP_MODE. */
#define OPT_DIR_MODE 0700
#define OPT_GROUP_DIR_MODE 0750

struct rt_options {
	char events[1024];	/* "" until defaulted */
	uint64_t freq;		/* Hz; 0 when period is used */
	uint64_t period;	/* events per sample; 0 when freq is used */
	enum opt_call_graph call_graph;
	uint32_t stack_size;
	uint32_t mmap_pages;	/* ring buffer data pages per thread, 0: chosen (ring-budget.h) */
	char output[PATH_MAX];	/* experiment directory */
	char cost_cache[PATH_MAX];	/* measured costs kept across runs: "" the default place, "none" nowhere */
	bool quiet;
	bool follow_fork;
	bool separate_debug;	/* DWARF of separate debug files names frames */
	bool activity;		/* thread activity (default on; docs/threads.md) */
	enum opt_backend backend;
	char papi_disable[256];	/* PAPI components to disable, "" none, "all" */
	bool piggyback;		/* MPI piggyback transport (default on) */
	bool waits;		/* MPI wait states and activity graph (default on) */
	bool cp_trace;		/* log every critical-path event (validation) */
	char cp_functions[1024];	/* zeroing: comma-separated names, "" none */
	uint32_t cp_auto;	/* zeroing: top K functions after the warm-up */
	double cp_warmup;	/* seconds before --cp-auto chooses */
	double cp_interval;	/* seconds between intermediate values, 0 off */
	uint64_t cp_budget;	/* bytes of critical-path records per rank, 0 no limit */
	double rare_paths;	/* share of the samples under which a call path is rare */
	double checkpoint;	/* seconds between checkpoints, 0 off */
	enum opt_merge merge;	/* MPI: reduce the ranks' profiles at MPI_Finalize */
	bool rank_files;	/* with merge: keep each rank's file (default) */
	double merge_timeout;	/* seconds a rank waits for a step of the merge */
	bool group_readable;	/* files 0640 and directories 0750, not 0600 and 0700 */
};

struct opt_desc {
	char short_name;	/* 0 when none */
	const char *long_name;
	const char *env;
	const char *arg;	/* NULL for a flag */
	const char *help;
	/* Parse value into o; returns 0 or -1 with a message in err. */
	int (*parse)(struct rt_options *o, const char *value, char *err, size_t errlen);
	const char *overrides;	/* environment twin this option cancels */
	const char *flag_value;	/* a flag's value (NULL: "1") */
};

extern const struct opt_desc opt_table[];

/* Fill o with the defaults (no event chosen yet). */
void opt_defaults(struct rt_options *o);

/* Apply value to the option d.  Returns 0, or -1 with err naming the option
 * (as --long) and what was wrong. */
int opt_apply(const struct opt_desc *d, struct rt_options *o, const char *value,
	      char *err, size_t errlen);

/* Read every CPPERF_* variable of the table into o (after opt_defaults).
 * Returns 0, or -1 with err naming the variable. */
int opt_from_env(struct rt_options *o, char *err, size_t errlen);

/* The permissions of every file and of every directory that cpperf-record
 * and the runtime make, set explicitly whatever the umask.  Never fail. */
mode_t opt_file_mode(const struct rt_options *o);
mode_t opt_dir_mode(const struct rt_options *o);

const char *opt_call_graph_name(enum opt_call_graph cg);
const char *opt_backend_name(enum opt_backend b);

#endif
