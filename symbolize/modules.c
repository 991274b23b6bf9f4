/*
 * modules.c - which module holds an address: the session's table of the
 * ELF objects mapped in the process, each with its executable segments,
 * kept in step with libdwfl's module list.
 *
 * libdwfl's own reading of /proc/PID/maps makes a module of every file
 * from its first mapping to its last, over whatever lies between: the
 * libraries libelf maps whole to read them (libc among them, far below
 * the loaded libc), and a library dlopen'd into a gap between two
 * mappings of one file.  Its samples were named "[0x1e513b] libc.so.6".
 * Here an object is a mapping of a file's offset 0 whose ELF program
 * headers, placed there, put an executable PT_LOAD exactly where the maps
 * show an executable mapping of the same file at the matching offset.
 * Its extent for libdwfl is that of its PT_LOADs, and an address belongs
 * to it only inside one of its executable segments.
 *
 * The table changes three ways, all on the thread that owns the session:
 * - a PERF_RECORD_MMAP2 (sym_mapped): the kernel reports an executable
 *   mapping with its file's identity, in order with the mapping thread's
 *   samples.  A mapping of a known object at its place changes nothing
 *   (a library closed and opened again); a new one is placed from its
 *   file's program headers, read once, without reading the maps; what its
 *   range covered before is dropped.
 * - a re-read of /proc/self/maps (sym_modules_refresh), when an address is
 *   in no segment and a refresh is due: at once after a record the table
 *   could not take, else at most every gap_ns, which doubles (up to a
 *   second) while re-reads find nothing.  Other threads' mappings, whose
 *   records may be drained later, and the PAPI backend, which has none,
 *   are found this way.
 * - the first read, when the session opens.
 * An object no longer mapped stays until something else takes its code's
 * addresses, so that its samples drained after a dlclose are named.  An
 * object that goes takes with it what was cached about its addresses
 * (rules, frames, CFI rows, symbol tables), and when libdwfl drops its
 * module, the caches that point into libdwfl's DWARF.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define SYM_PAGE 4096ull
#define SYM_GAP_MIN_NS 20000000ull	/* 20 ms */
#define SYM_GAP_MAX_NS 1000000000ull	/* 1 s */
#define SYM_MAX_PHDRS 64

static uint64_t page_down(uint64_t a)
{
	return a & ~(SYM_PAGE - 1);
}

static uint64_t page_up(uint64_t a)
{
	return (a + SYM_PAGE - 1) & ~(SYM_PAGE - 1);
}

static uint64_t coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Where an object's headers come from: the process's memory at base, or
 * a file. */
struct elf_src {
	int fd;			/* -1: memory */
	uint64_t base;
};

static bool src_read(const struct elf_src *src, uint64_t off, void *buf, size_t n)
{
	if (src->fd >= 0)
		return pread(src->fd, buf, n, (off_t)off) == (ssize_t)n;
	struct iovec local = { buf, n };
	struct iovec remote = { (void *)(uintptr_t)(src->base + off), n };
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

/* An object's layout relative to its bias. */
struct layout {
	uint64_t first;		/* the module's start, as libdwfl computes it */
	uint64_t hdr;		/* the page of file offset 0 */
	uint64_t end;		/* past the last PT_LOAD, page-aligned */
	uint32_t nx;
	struct sym_xseg x[SYM_MAX_XSEGS];	/* relative addresses */
};

/* Read the ELF header and PT_LOADs from src.  False for anything but an
 * x86-64 executable or shared object with an executable PT_LOAD. */
static bool read_layout(const struct elf_src *src, struct layout *lay)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[SYM_MAX_PHDRS];
	bool have_first = false, have_hdr = false;

	memset(lay, 0, sizeof(*lay));
	if (!src_read(src, 0, &eh, sizeof(eh)) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || eh.e_phentsize != sizeof(ph[0]) ||
	    eh.e_phnum == 0 || eh.e_phnum > SYM_MAX_PHDRS ||
	    !src_read(src, eh.e_phoff, ph, eh.e_phnum * sizeof(ph[0])))
		return false;
	for (int i = 0; i < eh.e_phnum; i++) {
		const Elf64_Phdr *p = &ph[i];

		if (p->p_type != PT_LOAD)
			continue;
		if (!have_first) {	/* libdwfl's bias is the module's start less this */
			lay->first = p->p_vaddr & (0 - p->p_align);
			have_first = true;
		}
		if (!have_hdr && page_down(p->p_offset) == 0) {
			lay->hdr = page_down(p->p_vaddr);
			have_hdr = true;
		}
		if (page_up(p->p_vaddr + p->p_memsz) > lay->end)
			lay->end = page_up(p->p_vaddr + p->p_memsz);
		if ((p->p_flags & PF_X) && lay->nx < SYM_MAX_XSEGS)
			lay->x[lay->nx++] = (struct sym_xseg){ page_down(p->p_vaddr),
							       page_up(p->p_vaddr + p->p_memsz),
							       page_down(p->p_offset) };
	}
	return have_first && have_hdr && lay->nx > 0 && lay->end > lay->first;
}

/* The object of layout lay at bias, named name (copied); false when
 * memory is short. */
static bool place(const struct layout *lay, uint64_t bias, uint64_t dev, uint64_t ino,
		  const char *name, struct sym_load *l)
{
	memset(l, 0, sizeof(*l));
	if (!(l->name = strdup(name)))
		return false;
	l->lo = lay->first + bias;
	l->hdr = lay->hdr + bias;
	l->hi = lay->end + bias;
	l->dev = dev;
	l->ino = ino;
	l->module = SYMTAB_NO_MODULE;
	l->nx = lay->nx;
	for (uint32_t i = 0; i < lay->nx; i++)
		l->x[i] = (struct sym_xseg){ lay->x[i].lo + bias, lay->x[i].hi + bias, lay->x[i].off };
	return true;
}

/* Does [lo, hi) overlap l's executable segments? */
static bool overlaps_code(const struct sym_load *l, uint64_t lo, uint64_t hi)
{
	for (uint32_t i = 0; i < l->nx; i++)
		if (lo < l->x[i].hi && l->x[i].lo < hi)
			return true;
	return false;
}

/* Is the mapping [lo, hi) of file (dev, ino) from offset off l's own code
 * wherever it overlaps l's executable segments? */
static bool is_own_code(const struct sym_load *l, uint64_t lo, uint64_t hi, uint64_t off,
			uint64_t dev, uint64_t ino)
{
	if (l->dev != dev || l->ino != ino)
		return false;
	for (uint32_t i = 0; i < l->nx; i++) {
		uint64_t a = lo > l->x[i].lo ? lo : l->x[i].lo;

		if (lo < l->x[i].hi && l->x[i].lo < hi &&
		    off + (a - lo) != l->x[i].off + (a - l->x[i].lo))
			return false;
	}
	return true;
}

/* Rebuild the sorted table of executable segments. */
static int by_lo(const void *a, const void *b)
{
	const struct sym_seg *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void index_segments(struct sym_modules *m)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < m->n; i++)
		n += m->v[i].name ? m->v[i].nx : 0;
	if (n > m->segs_cap) {
		struct sym_seg *v = realloc(m->segs, n * sizeof(*v));

		if (!v)
			return;	/* the old table stays: misses are re-read later */
		m->segs = v;
		m->segs_cap = n;
	}
	m->nsegs = 0;
	m->segs_stale = false;
	for (uint32_t i = 0; i < m->n; i++)
		for (uint32_t k = 0; m->v[i].name && k < m->v[i].nx; k++)
			m->segs[m->nsegs++] = (struct sym_seg){ m->v[i].x[k].lo, m->v[i].x[k].hi, i };
	qsort(m->segs, m->nsegs, sizeof(*m->segs), by_lo);
}

/* Drop object i and everything cached about its addresses. */
static void drop(struct sym_session *s, uint32_t i)
{
	struct sym_load *l = &s->mods.v[i];

	sym_pctab_forget(&s->pcs, l->lo, l->hi);
	sym_rows_forget(&s->rows, l->lo, l->hi);
	sym_names_forget(&s->names, i);
	s->mods.dropped |= l->mod != NULL;
	free(l->name);
	memset(l, 0, sizeof(*l));
	s->mods.gen++;
}

/* Add l (its name passes to the table), dropping every object its extent
 * overlaps; false when memory is short (l's name is freed). */
static bool add(struct sym_session *s, struct sym_load *l)
{
	struct sym_modules *m = &s->mods;
	uint32_t slot = m->n;

	for (uint32_t i = 0; i < m->n; i++) {
		if (m->v[i].name && l->lo < m->v[i].hi && m->v[i].lo < l->hi)
			drop(s, i);
		if (!m->v[i].name && slot == m->n)
			slot = i;
	}
	if (slot == m->cap) {
		uint32_t cap = m->cap ? 2 * m->cap : 64;
		struct sym_load *v = realloc(m->v, cap * sizeof(*v));

		if (!v) {
			free(l->name);
			return false;
		}
		memset(v + m->cap, 0, (cap - m->cap) * sizeof(*v));
		m->v = v;
		m->cap = cap;
	}
	m->v[slot] = *l;
	if (slot == m->n)
		m->n++;
	m->unreported = true;
	m->gen++;
	return true;
}

/*
 * Bring libdwfl's module list in line with the table: first without the
 * objects dropped (libdwfl frees their modules, and with them the DWARF
 * that the unit, DIE and file caches point into), then with the objects
 * added.  Two rounds, because libdwfl would take a dropped module back for
 * a new object of the same name and extent.
 */
void sym_modules_sync(struct sym_session *s)
{
	struct sym_modules *m = &s->mods;

	if (m->dropped) {	/* after an mmap record or a refresh: no caller holds a DIE */
		dwfl_report_begin(s->dwfl);
		for (uint32_t i = 0; i < m->n; i++)
			if (m->v[i].name && m->v[i].mod)
				m->v[i].mod = dwfl_report_module(s->dwfl, m->v[i].name, m->v[i].lo,
								 m->v[i].hi);
		dwfl_report_end(s->dwfl, NULL, NULL);
		sym_cu_cache_release(&s->cus);
		sym_die_frames_release(&s->die_frames);
		sym_decl_files_release(&s->decl_files);
		m->dropped = false;
	}
	if (m->unreported) {
		dwfl_report_begin_add(s->dwfl);
		for (uint32_t i = 0; i < m->n; i++) {
			struct sym_load *l = &m->v[i];
			void **userdata;

			if (!l->name || l->mod)
				continue;
			l->mod = dwfl_report_module(s->dwfl, l->name, l->lo, l->hi);
			if (l->mod && dwfl_module_info(l->mod, &userdata, NULL, NULL, NULL, NULL,
						       NULL, NULL))
				*userdata = (void *)((uintptr_t)i + 1);
		}
		dwfl_report_end(s->dwfl, NULL, NULL);
		m->unreported = false;
	}
}

uint32_t sym_load_of(Dwfl_Module *mod)
{
	void **userdata;

	if (!mod || !dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    !*userdata)
		return UINT32_MAX;
	return (uint32_t)((uintptr_t)*userdata - 1);
}

Dwfl_Module *sym_module_at(struct sym_session *s, uint64_t addr)
{
	struct sym_modules *m = &s->mods;
	uint32_t lo;

	sym_modules_sync(s);
	if (m->segs_stale)
		index_segments(m);
	if (m->last < m->nsegs && addr >= m->segs[m->last].lo && addr < m->segs[m->last].hi)
		return m->v[m->segs[m->last].load].mod;	/* the frames of a stack share a few */
	lo = sym_upper(m->segs, m->nsegs, sizeof(*m->segs), addr);
	if (lo == 0 || addr >= m->segs[lo - 1].hi)
		return NULL;
	m->last = lo - 1;
	return m->v[m->segs[lo - 1].load].mod;
}

bool sym_refresh_due(struct sym_session *s)
{
	return s->mods.changed || coarse_ns() >= s->mods.next_read_ns;
}

/* Read /proc/self/maps whole into m->text; its length, or -1. */
static ssize_t read_text(struct sym_modules *m)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	size_t len = 0;

	if (fd < 0)
		return -1;
	for (;;) {
		if (m->text_cap - len < 4096) {
			size_t cap = m->text_cap ? 2 * m->text_cap : 65536;
			char *t = realloc(m->text, cap + 1);

			if (!t)
				break;
			m->text = t;
			m->text_cap = cap;
		}
		ssize_t r = read(fd, m->text + len, m->text_cap - len);

		if (r <= 0) {
			close(fd);
			if (r < 0)
				return -1;
			m->text[len] = '\0';
			return (ssize_t)len;
		}
		len += (size_t)r;
	}
	close(fd);
	return -1;
}

static uint64_t hex(const char **p)
{
	uint64_t v = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return v;
	}
}

/* Parse the line at *p (NUL-terminated in place); false at the end or on
 * a line of another shape. */
static bool next_line(char **p, struct sym_map_line *ln)
{
	char *nl, *q;
	const char *c = *p;

	if (!*c)
		return false;
	nl = strchr(*p, '\n');
	if (nl)
		*nl = '\0';
	*p = nl ? nl + 1 : *p + strlen(*p);
	ln->lo = hex(&c);
	if (*c++ != '-')
		return false;
	ln->hi = hex(&c);
	if (*c++ != ' ' || strlen(c) < 5)
		return false;
	ln->r = c[0] == 'r';
	ln->x = c[2] == 'x';
	c += 5;
	ln->off = hex(&c);
	if (*c++ != ' ')
		return false;
	ln->dev = hex(&c) << 32;
	if (*c++ != ':')
		return false;
	ln->dev |= hex(&c);
	if (*c++ != ' ')
		return false;
	ln->ino = strtoull(c, &q, 10);
	while (*q == ' ')
		q++;
	ln->path = q;
	return true;
}

/* The object whose ELF header line ln maps, checked against the
 * executable mappings: false when it is none (a data file, a file libelf
 * mapped whole to read it) or memory is short. */
static bool object_at(const struct sym_modules *m, const struct sym_map_line *ln,
		      struct sym_load *l)
{
	struct elf_src src = { -1, ln->lo };
	struct layout lay;

	if (!read_layout(&src, &lay) || !place(&lay, ln->lo - lay.hdr, ln->dev, ln->ino, ln->path, l))
		return false;
	for (uint32_t i = 0; i < m->nx; i++) {
		const struct sym_map_line *x = &m->lines[m->xs[i]];

		if (overlaps_code(l, x->lo, x->hi) &&
		    is_own_code(l, x->lo, x->hi, x->off, x->dev, x->ino))
			return true;
	}
	free(l->name);
	return false;
}

/* Room for one more in a growing array of size-byte items. */
static bool room(void **v, uint32_t n, uint32_t *cap, size_t size)
{
	if (n < *cap)
		return true;
	uint32_t c = *cap ? 2 * *cap : 512;
	void *p = realloc(*v, c * size);

	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

/* Parse m->text into m->lines, the executable ones indexed in m->xs;
 * false when memory is short. */
static bool parse_text(struct sym_modules *m)
{
	char *p = m->text;

	m->nlines = m->nx = 0;
	while (*p) {
		if (!room((void **)&m->lines, m->nlines, &m->lines_cap, sizeof(*m->lines)) ||
		    !room((void **)&m->xs, m->nx, &m->xs_cap, sizeof(*m->xs)))
			return false;
		if (!next_line(&p, &m->lines[m->nlines]))
			continue;
		if (m->lines[m->nlines].x)
			m->xs[m->nx++] = m->nlines;
		m->nlines++;
	}
	return true;
}

/* Whether an object of file (dev, ino) is known with its header at hdr. */
static bool known_at(const struct sym_modules *m, uint64_t dev, uint64_t ino, uint64_t hdr)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->v[i].name && m->v[i].dev == dev && m->v[i].ino == ino && m->v[i].hdr == hdr)
			return true;
	return false;
}

/* Apply m->lines to the table; returns the objects added. */
static int apply_lines(struct sym_session *s)
{
	struct sym_modules *m = &s->mods;
	int added = 0;

	/* objects whose code an executable mapping of something else replaced */
	for (uint32_t k = 0; k < m->nx; k++) {
		const struct sym_map_line *x = &m->lines[m->xs[k]];

		for (uint32_t i = 0; i < m->n; i++)
			if (m->v[i].name && overlaps_code(&m->v[i], x->lo, x->hi) &&
			    !is_own_code(&m->v[i], x->lo, x->hi, x->off, x->dev, x->ino))
				drop(s, i);
	}
	/* objects: a file's offset 0 mapped, with code of the file mapped */
	for (uint32_t k = 0; k < m->nlines; k++) {
		const struct sym_map_line *ln = &m->lines[k];
		struct sym_load l;
		bool code = false;

		if (ln->off != 0 || !ln->r || ln->path[0] != '/' || ln->ino == 0 ||
		    known_at(m, ln->dev, ln->ino, ln->lo))
			continue;
		for (uint32_t i = 0; i < m->nx && !code; i++)
			code = m->lines[m->xs[i]].dev == ln->dev && m->lines[m->xs[i]].ino == ln->ino;
		if (code && object_at(m, ln, &l))
			added += add(s, &l);
	}
	/* the vDSO, whose ELF image libdwfl reads from memory */
	for (uint32_t k = 0; k < m->nx; k++) {
		const struct sym_map_line *x = &m->lines[m->xs[k]];
		struct sym_load l = { .lo = x->lo, .hi = x->hi, .hdr = x->lo,
				      .module = SYMTAB_NO_MODULE, .nx = 1,
				      .x = { { x->lo, x->hi, 0 } } };
		char name[32];

		if (x->lo != m->vdso || strcmp(x->path, "[vdso]") || known_at(m, 0, 0, x->lo))
			continue;
		snprintf(name, sizeof(name), "[vdso: %d]", (int)getpid());
		if ((l.name = strdup(name)))
			added += add(s, &l);
	}
	return added;
}

/*
 * Re-read the maps (see internal.h).  A read asked for by a miss that
 * finds nothing doubles the wait before the next one.
 */
int sym_modules_refresh(struct sym_session *s)
{
	struct sym_modules *m = &s->mods;
	struct timespec t0, t1;
	int added = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (read_text(m) >= 0 && parse_text(m))
		added = apply_lines(s);
	if (added != 0 || m->changed)
		m->gap_ns = SYM_GAP_MIN_NS;
	else if ((m->gap_ns *= 2) > SYM_GAP_MAX_NS)
		m->gap_ns = SYM_GAP_MAX_NS;
	m->changed = false;
	m->next_read_ns = coarse_ns() + m->gap_ns;
	index_segments(m);
	sym_modules_sync(s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	m->reads++;
	m->read_ns += (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull +
		      (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
	return added;
}

int sym_modules_open(struct sym_session *s, char *err, size_t errlen)
{
	s->mods.vdso = getauxval(AT_SYSINFO_EHDR);
	s->mods.gap_ns = SYM_GAP_MIN_NS;
	if (sym_modules_refresh(s) >= 0)
		return 0;
	snprintf(err, errlen, "cannot read the module list of process %d (/proc/self/maps): %s",
		 (int)s->pid, errno ? strerror(errno) : "out of memory");
	return -1;
}

void sym_modules_release(struct sym_modules *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	free(m->segs);
	free(m->text);
	free(m->lines);
	free(m->xs);
	memset(m, 0, sizeof(*m));
}

/* The object the file at mp->path, mapped at mp->addr from mp->pgoff, is
 * part of, placed from the file's program headers; false when the file is
 * not the one mapped (replaced, deleted) or is no object. */
static bool same_file(const struct stat *st, const struct sym_mapping *mp)
{
	return S_ISREG(st->st_mode) && major(st->st_dev) == mp->maj &&
	       minor(st->st_dev) == mp->min && st->st_ino == mp->ino;
}

static bool object_of_file(const struct sym_mapping *mp, struct sym_load *l)
{
	struct elf_src src = { -1, 0 };
	struct layout lay;
	struct stat st;
	bool ok = false;

	/* a regular file only: opening a device can block or act */
	if (stat(mp->path, &st) != 0 || !same_file(&st, mp) ||
	    (src.fd = open(mp->path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if (fstat(src.fd, &st) == 0 && same_file(&st, mp) && read_layout(&src, &lay)) {
		for (uint32_t i = 0; i < lay.nx && !ok; i++)
			if (lay.x[i].off == mp->pgoff)
				ok = place(&lay, mp->addr - lay.x[i].lo,
					   (uint64_t)mp->maj << 32 | mp->min, mp->ino, mp->path, l);
	}
	close(src.fd);
	return ok;
}

/*
 * An executable mapping the kernel reported (see symbolize.h): the
 * objects whose code it replaced go; an object of its own file at its
 * place is known already; another is placed from the file.  What cannot
 * be placed (a deleted or replaced file, the build id in place of the
 * file's identity) makes the next miss re-read the maps at once.
 */
void sym_mapped(struct sym_session *s, const struct sym_mapping *mp)
{
	struct sym_modules *m = &s->mods;
	uint64_t dev = (uint64_t)mp->maj << 32 | mp->min, hi = mp->addr + mp->len;
	bool own = false;
	struct sym_load l;

	if (!(mp->prot & PROT_EXEC) || hi <= mp->addr)
		return;
	for (uint32_t i = 0; i < m->n; i++) {
		if (!m->v[i].name || !overlaps_code(&m->v[i], mp->addr, hi))
			continue;
		if (mp->ino && is_own_code(&m->v[i], mp->addr, hi, mp->pgoff, dev, mp->ino))
			own = true;
		else
			drop(s, i);
	}
	/* anonymous code ("//anon", "[heap]"): nothing to find */
	if (!own && mp->path && mp->path[0] == '/' && mp->path[1] != '/') {
		if (mp->ino && object_of_file(mp, &l) && add(s, &l))
			m->from_records++;
		else
			m->changed = true;
	}
	m->segs_stale = true;	/* indexed at the next lookup: records come in bursts */
	if (m->dropped)
		sym_modules_sync(s);	/* now, between samples: the caches go */
}
