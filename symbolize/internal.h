/*
 * internal.h - the session state shared by the files of symbolize/.
 *
 * session.c owns the Dwfl and the module table, unwind.c drives
 * dwfl_getthread_frames over a sample's copied stack, resolve.c turns lookup
 * addresses into interned frames and caches them.  Nothing here is part of
 * the interface (symbolize.h); a session is used by one thread at a time
 * (the drain thread that opened it).
 */
#ifndef CPPERF_SYMBOLIZE_INTERNAL_H
#define CPPERF_SYMBOLIZE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <elfutils/libdwfl.h>
#include "symbolize.h"

/* The index of the first of n items (size bytes each, at v, sorted by
 * the uint64_t each starts with, its lowest address) that starts above
 * addr. */
static inline uint32_t sym_upper(const void *v, uint32_t n, size_t size, uint64_t addr)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t start;

		memcpy(&start, (const char *)v + (size_t)mid * size, sizeof(start));
		if (start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Registers the fast unwinder follows through frames: the callee-saved
 * rbx, rbp, r12..r15 and the return address (rip); rsp is the CFA. */
#define SYM_NRULES 7

/* How a caller's register is found from this frame's state. */
enum sym_how { SYM_SAME, SYM_UNDEF, SYM_AT, SYM_VAL };

struct sym_reg_rule {
	int8_t how;		/* enum sym_how */
	int8_t base;		/* -1: the CFA, else a DWARF register */
	int32_t off;		/* SYM_AT: *(base+off), SYM_VAL: base+off */
};

/* What an unwind step from this lookup address needs: rule_state says
 * whether the rule was derived yet and whether the fast path can use it. */
enum sym_rule_state { SYM_RULE_NONE, SYM_RULE_OK, SYM_RULE_LAST, SYM_RULE_SLOW };

/* A CFI rule of the shape the fast unwinder follows: the CFA, and where
 * each followed register of the caller is.  Compared and hashed as bytes:
 * whoever fills one zeroes it first. */
struct sym_rule {
	int8_t cfa_reg;
	int32_t cfa_off;	/* CFA = cfa_reg + cfa_off */
	struct sym_reg_rule rules[SYM_NRULES];
};

/* Everything cached about one lookup address (see pctab.c).  Small: a
 * warm sample probes one per frame. */
struct sym_pc {
	uint64_t addr;
	uint32_t first;		/* frames are pctab.ids[first .. +nframes) */
	uint32_t rule;		/* SYM_RULE_OK or _LAST: pctab.rules[rule] */
	uint16_t nframes;	/* 0: not resolved yet */
	uint8_t rule_state;	/* enum sym_rule_state */
	bool used;
	bool unknown;		/* frames made while no module covered addr */
	uint8_t gen;		/* unknown: sym_modules.gen when they were made */
	uint8_t root;		/* chain.c: 0 not asked, 1 no, 2 a thread's root */
};

/* cfi-rows.c: one CFI row's addresses and the rule derived from it. */
struct sym_row {
	uint64_t lo, hi;	/* [lo, hi), process addresses */
	uint8_t state;		/* SYM_RULE_OK, _LAST or _SLOW */
	struct sym_rule rule;
};

/* cfi-rows.c: the rows derived so far, sorted by lo, none overlapping. */
struct sym_rows {
	struct sym_row *v;
	uint32_t n, cap;
};

/* Open-addressing table lookup address -> struct sym_pc, and the pool of
 * frame ids they point into.  Grows with distinct addresses, not samples. */
struct sym_pctab {
	struct sym_pc *slots;
	uint32_t nslots, used;	/* nslots is a power of two or 0 */
	uint32_t *ids;
	uint32_t nids, ids_alloc;
	/* the distinct rules, and an open-addressing index of them (slot:
	 * rule + 1, 0 empty) */
	struct sym_rule *rules;
	uint32_t nrules, rules_alloc;
	uint32_t *rule_index;
	uint32_t nrule_slots;
};

/* cu-index.c: the function tables of the units resolved so far. */
struct sym_cu_cache {
	struct sym_cu_index **v;
	uint32_t n, cap;
};

/* decl-files.c: the file tables of the line programs read so far, and
 * the sections they were read from. */
struct sym_decl_files {
	struct unit_files *v;
	uint32_t n;
	struct line_sections *secs;
	uint32_t nsecs;
	uint32_t fallbacks;	/* names left to dwarf_decl_file */
};

/* die-frames.c: the frame of each named function DIE, by the DIE's
 * address in its module's DWARF. */
struct sym_die_frames {
	struct sym_die_frame *slots;
	uint32_t nslots, used;	/* nslots is a power of two or 0 */
};

/* elf-names.c: the symbol names of each module's address stretches, by
 * its object's slot in the module table (sym_load_of): a library mapped
 * twice has two tables, its addresses differ. */
struct sym_names_cache {
	struct sym_elf_names *v;
	uint32_t n;
	uint32_t read_direct;	/* modules whose table was read from its ELF data */
	uint32_t by_holders;	/* stretches named without a scan of the table */
};

/* modules.c: an executable PT_LOAD of a loaded object, page-aligned:
 * process addresses [lo, hi) map its file from offset off. */
struct sym_xseg {
	uint64_t lo, hi, off;
};

#define SYM_MAX_XSEGS 4

/* modules.c: one loaded ELF object (or the vDSO), libdwfl's module for it
 * once reported.  name NULL: a free slot. */
struct sym_load {
	uint64_t lo, hi;	/* the module's extent, its PT_LOADs' pages */
	uint64_t dev, ino;	/* its file: major << 32 | minor, inode; 0, 0 the vDSO */
	uint64_t hdr;		/* where its file's offset 0 is mapped */
	char *name;		/* what libdwfl opens: the path, or "[vdso: PID]" */
	Dwfl_Module *mod;	/* NULL until reported */
	uint32_t module;	/* symtab index once interned, else SYMTAB_NO_MODULE */
	uint32_t nx;
	struct sym_xseg x[SYM_MAX_XSEGS];
};

/* modules.c: one line of /proc/self/maps. */
struct sym_map_line {
	uint64_t lo, hi, off, dev, ino;	/* dev: major << 32 | minor */
	const char *path;	/* into sym_modules.text; "" for none */
	bool r, x;
};

/* modules.c: an executable segment in the lookup table. */
struct sym_seg {
	uint64_t lo, hi;
	uint32_t load;		/* index in sym_modules.v */
};

/* modules.c: the objects mapped in the process and their executable
 * segments, the authority on which module holds an address. */
struct sym_modules {
	struct sym_load *v;
	uint32_t n, cap;	/* slots in use or free */
	struct sym_seg *segs;	/* sorted by lo, disjoint */
	uint32_t nsegs, segs_cap;
	uint32_t last;		/* the segment found last */
	bool segs_stale;	/* objects came or went since segs was made */
	uint64_t vdso;		/* AT_SYSINFO_EHDR */
	char *text;		/* the last /proc/self/maps read */
	size_t text_cap;
	struct sym_map_line *lines;	/* its lines */
	uint32_t nlines, lines_cap;
	uint32_t *xs;		/* the executable ones among them */
	uint32_t nx, xs_cap;
	uint64_t next_read_ns;	/* a miss re-reads the maps from then on */
	uint64_t gap_ns;	/* between two reads a miss asks for */
	uint64_t read_ns;	/* time spent in reads of the maps, all told */
	uint32_t reads;		/* reads of the maps */
	uint32_t from_records;	/* objects taken from mmap records */
	uint8_t gen;		/* bumped whenever an object comes or goes */
	bool changed;		/* a mapping was seen that the table lacks */
	bool unreported;	/* some object is not reported to libdwfl yet */
	bool dropped;		/* some reported object must leave libdwfl */
};

struct sym_session {
	struct symtab *st;	/* caller's, outlives the session */
	Dwfl *dwfl;
	pid_t pid;
	bool missed;		/* the fast unwinder met code in no module */
	bool attached;		/* dwfl_attach_state succeeded */
	bool separate_debug;	/* DWARF from separate debug files names frames */
	/* The sample being unwound and where its addresses go; set by
	 * sym_unwind around dwfl_getthread_frames only. */
	const struct sym_stack *cur;
	uint64_t *out;
	uint64_t *out_sp;	/* each frame's sp too, when not NULL */
	int max, n;
	bool read_failed;	/* a memory read failed since the last frame */
	uint32_t reach;		/* bytes of its stack copy the last fast unwind read */
	struct sym_pctab pcs;
	struct sym_cu_cache cus;
	struct sym_names_cache names;
	struct sym_die_frames die_frames;
	struct sym_decl_files decl_files;
	struct sym_rows rows;
	struct sym_modules mods;
	uint32_t entry_frame;	/* chain.c: the entry point's frame + 1; 0 not named yet */
	uint64_t symbols_only;	/* an address in the module named by its symbols alone; 0 none */
	uint8_t *dwarf_names;	/* by module index, DWARF names frames: 0 not asked, 1 no, 2 yes */
	uint32_t n_dwarf_names;
};

/* debuginfo.c: libdwfl's find_debuginfo callback: the module's separate
 * debug file by build id, then by .gnu_debuglink, local files only; its
 * descriptor moved high and noted.  sym_debug_fds_taken: whether the
 * program has the number of a descriptor handed out, which dwfl_end would
 * close; one closed since (by libdwfl, which closes a module's when the
 * library was unloaded, or by the program) is not taken;
 * sym_debug_fds_forget: drop the notes. */
int sym_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		       char **debuginfo_file_name);
bool sym_debug_fds_taken(void);
void sym_debug_fds_forget(void);

/* modules.c: read the objects mapped now into s->mods, the first time.
 * Returns 0, or -1 with a message in err. */
int sym_modules_open(struct sym_session *s, char *err, size_t errlen);

/* modules.c: free the table (not libdwfl's modules). */
void sym_modules_release(struct sym_modules *m);

/* modules.c: bring libdwfl's module list in line with the table (the
 * objects dropped leave it, with the caches that point into their DWARF;
 * the objects found are reported).  Cheap when nothing changed. */
void sym_modules_sync(struct sym_session *s);

/* modules.c: the module whose executable segment holds addr, or NULL.
 * Objects found since the last call are reported to libdwfl first. */
Dwfl_Module *sym_module_at(struct sym_session *s, uint64_t addr);

/* modules.c: whether an address in no module should re-read the maps now:
 * a mapping the table lacks was seen, or the last read is old enough
 * (the wait doubles while reads find nothing new). */
bool sym_refresh_due(struct sym_session *s);

/* modules.c: re-read /proc/self/maps into the table: objects mapped since
 * are added, objects whose code was replaced are dropped with everything
 * cached about their addresses.  Objects unmapped and not replaced stay,
 * for samples drained late.  Returns how many objects came, -1 when the
 * maps could not be read.  Invalidates sym_pc pointers' frames. */
int sym_modules_refresh(struct sym_session *s);

/* modules.c: the slot of mod's object in s->mods (elf-names.c keys its
 * tables by it), UINT32_MAX for a module not reported by modules.c. */
uint32_t sym_load_of(Dwfl_Module *mod);

/* session.c: whether mod's own file (not a separate debug file) has a
 * section of this name with contents, ".debug_*" compressed as
 * ".zdebug_*" included; reads the section headers. */
bool sym_own_section(Dwfl_Module *mod, const char *name);

/* session.c: the symtab module index of mod, interned on first use with
 * its path and build id.  SYMTAB_NO_MODULE when memory is short. */
uint32_t sym_module_index(struct sym_session *s, Dwfl_Module *mod);

/* unwind.c: attach the thread callbacks to s->dwfl; once per session.
 * Returns 0, or -1 with a message in err. */
int sym_attach(struct sym_session *s, char *err, size_t errlen);

/* pctab.c: the entry of addr, created (zeroed but for addr) when absent.
 * NULL only when memory is short.  Pointers stay valid until the next
 * call that may create. */
struct sym_pc *sym_pc_get(struct sym_pctab *t, uint64_t addr);

/* pctab.c: append n frame ids to the pool; returns the index of the first
 * or UINT32_MAX when memory is short. */
uint32_t sym_pc_add_ids(struct sym_pctab *t, const uint32_t *ids, int n);

/* pctab.c: the index of rule r in t->rules, added when new;
 * UINT32_MAX when memory is short. */
uint32_t sym_rule_intern(struct sym_pctab *t, const struct sym_rule *r);

/* pctab.c: forget what was derived for the addresses [lo, hi) (rules,
 * frames): they are derived again when next seen.  Entries stay where
 * they are. */
void sym_pctab_forget(struct sym_pctab *t, uint64_t lo, uint64_t hi);

/* pctab.c: free the table. */
void sym_pctab_release(struct sym_pctab *t);

/* cu-index.c: the function DIEs at addr (a DWARF address of cu's
 * module), innermost first: the inlined calls, then the function that
 * holds them; at most max.  Returns the count, 0 when no function of the
 * unit holds addr, -1 when memory is short. */
int sym_cu_chain(struct sym_cu_cache *c, Dwarf_Die *cu, uint64_t addr, Dwarf_Die *fn, int max);
/* cu-index.c: free the tables. */
void sym_cu_cache_release(struct sym_cu_cache *c);
/* decl-files.c: the file die is declared in, the name dwarf_decl_file
 * gives; NULL when it has none. */
const char *sym_decl_file(struct sym_decl_files *c, Dwarf_Die *die);
/* decl-files.c: free the tables. */
void sym_decl_files_release(struct sym_decl_files *c);
/* fde-start.c: the start (a process address) of the FDE that holds addr
 * in mod, from PT_GNU_EH_FRAME's table; false when none is known. */
bool sym_fde_start(Dwfl_Module *mod, uint64_t addr, uint64_t *start);

/* elf-names.c: the name dwfl_module_addrinfo gives addr in mod (key:
 * sym_load_of(mod), whose table is kept), asked once per stretch of
 * addresses between symbol and section bounds; NULL or "" when no symbol
 * names it. */
const char *sym_elf_symbol(struct sym_names_cache *c, uint32_t key, Dwfl_Module *mod,
			   uint64_t addr);
/* cfi-rows.c: the row kept that holds addr, or NULL. */
const struct sym_row *sym_row_find(const struct sym_rows *t, uint64_t addr);
/* cfi-rows.c: keep the part of row no kept row holds (nothing when
 * memory is short). */
void sym_row_add(struct sym_rows *t, const struct sym_row *row);
/* cfi-rows.c: drop the rows in [lo, hi). */
void sym_rows_forget(struct sym_rows *t, uint64_t lo, uint64_t hi);
/* cfi-rows.c: free the table. */
void sym_rows_release(struct sym_rows *t);

/* die-frames.c: the frame kept for die, or UINT32_MAX. */
uint32_t sym_die_frame_get(const struct sym_die_frames *t, const void *die);
/* die-frames.c: keep frame for die (not kept when memory is short). */
void sym_die_frame_put(struct sym_die_frames *t, const void *die, uint32_t frame);
/* die-frames.c: free the table. */
void sym_die_frames_release(struct sym_die_frames *t);

/* elf-names.c: free the table of key (an object that left). */
void sym_names_forget(struct sym_names_cache *c, uint32_t key);
/* elf-names.c: free the tables. */
void sym_names_cache_release(struct sym_names_cache *c);

/* resolve.c: the same chain as sym_cu_chain from dwarf_getscopes, which
 * walks the whole unit for each address: the fallback when memory is
 * short, and the unit test's reference.  Returns the count, 0 when no
 * function holds addr. */
int sym_scopes_chain(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *fn, int max);

/* rules.c: the rule for the step from the lookup address addr, as libdwfl
 * would find it (.eh_frame first, then .debug_frame), into row; returns
 * its state, SYM_RULE_NONE when no module covers addr yet (a reload may
 * add it).  With rows, from the kept row that holds addr, else derived
 * and kept; without, derived from libdw alone (the unit test's
 * reference). */
uint8_t sym_rule_of(struct sym_session *s, uint64_t addr, struct sym_row *row, bool rows);

/* rules.c: unwind st with the cached CFI rules alone.  Returns the frame
 * count, or -1 when some frame needs libdwfl (no CFI, an expression the
 * fast path does not evaluate, a signal frame, a register not followed). */
int sym_fast_unwind(struct sym_session *s, const struct sym_stack *st,
		    uint64_t *addrs, int max, bool *complete);

/* unwind.c: unwind st with libdwfl alone (the general path; the unit test
 * compares it with the fast one).  Returns the frame count. */
int sym_dwfl_unwind(struct sym_session *s, const struct sym_stack *st,
		    uint64_t *addrs, int max, bool *complete);

/* unwind.c: read a word of the sample's memory (copy, else live unless
 * inside the live stack).  Returns false when it cannot be read. */
bool sym_read_word(const struct sym_session *s, uint64_t addr, uint64_t *result);

#endif
