/*
 * debuginfod.c - names from debuginfod's debug files (debuginfod.h).
 *
 * libdebuginfod is opened with dlopen: cpperf needs neither it nor its
 * header to build or run, and loads it (with libcurl) only when asked.
 * Each module's debug file is fetched once; its function symbols are
 * kept sorted by address.  An address in the module is an offset from
 * the module's lowest loaded page, which is the lowest PT_LOAD segment's
 * page in the file's addresses.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debuginfod.h"

typedef struct debuginfod_client debuginfod_client;

struct dbgi_fn {
	uint64_t start, end;
	char *name;
};

struct dbgi_module {
	char *build_id;
	uint64_t base;		/* the lowest loaded page's address */
	struct dbgi_fn *fns;	/* by start */
	size_t n;
};

struct dbgi {
	void *lib;
	debuginfod_client *client;
	debuginfod_client *(*begin)(void);
	int (*find)(debuginfod_client *, const unsigned char *, int, char **);
	void (*end)(debuginfod_client *);
	struct dbgi_module *mods;
	size_t nmods;
};

struct dbgi *dbgi_open(char *err, size_t errlen)
{
	struct dbgi *c;
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (!urls || !*urls) {
		snprintf(err, errlen, "--debuginfod: DEBUGINFOD_URLS names no server");
		return NULL;
	}
	if (!(c = calloc(1, sizeof(*c))) || !(c->lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL))) {
		snprintf(err, errlen, "--debuginfod: %s (apt-get install libdebuginfod1)",
			 c ? dlerror() : "out of memory");
		free(c);
		return NULL;
	}
	*(void **)&c->begin = dlsym(c->lib, "debuginfod_begin");
	*(void **)&c->find = dlsym(c->lib, "debuginfod_find_debuginfo");
	*(void **)&c->end = dlsym(c->lib, "debuginfod_end");
	if (!c->begin || !c->find || !c->end || !(c->client = c->begin())) {
		snprintf(err, errlen, "--debuginfod: libdebuginfod.so.1 gives no client");
		dlclose(c->lib);
		free(c);
		return NULL;
	}
	return c;
}

static int by_start(const void *a, const void *b)
{
	const struct dbgi_fn *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The lowest PT_LOAD's page and the function symbols of elf into m. */
static void read_elf(struct dbgi_module *m, Elf *elf)
{
	size_t nph = 0, cap = 0;
	Elf_Scn *scn = NULL;

	m->base = UINT64_MAX;
	elf_getphdrnum(elf, &nph);
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			uint64_t page = ph.p_align > 1 ? ph.p_vaddr & ~(ph.p_align - 1) : ph.p_vaddr;

			m->base = page < m->base ? page : m->base;
		}
	}
	if (m->base == UINT64_MAX)
		m->base = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;
			struct dbgi_fn *v;

			if (!gelf_getsym(data, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_value || !(name = elf_strptr(elf, sh.sh_link, s.st_name)) || !*name)
				continue;
			if (m->n == cap) {
				cap = cap ? 2 * cap : 256;
				if (!(v = realloc(m->fns, cap * sizeof(*v))))
					return;
				m->fns = v;
			}
			if (!(m->fns[m->n].name = strdup(name)))
				return;
			m->fns[m->n].start = s.st_value;
			m->fns[m->n++].end = s.st_value + (s.st_size ? s.st_size : 1);
		}
	}
	if (m->n > 1)
		qsort(m->fns, m->n, sizeof(*m->fns), by_start);
}

/* The module of build_id, fetched the first time it is asked for. */
static struct dbgi_module *module_of(struct dbgi *c, const char *build_id)
{
	struct dbgi_module *m, *v;
	char *path = NULL;
	int fd;

	for (size_t i = 0; i < c->nmods; i++)
		if (!strcmp(c->mods[i].build_id, build_id))
			return &c->mods[i];
	if (!(v = realloc(c->mods, (c->nmods + 1) * sizeof(*v))))
		return NULL;
	c->mods = v;
	m = &c->mods[c->nmods];
	*m = (struct dbgi_module){ .build_id = strdup(build_id) };
	if (!m->build_id)
		return NULL;
	c->nmods++;
	/* a build id given as hex: length 0 */
	if ((fd = c->find(c->client, (const unsigned char *)build_id, 0, &path)) >= 0) {
		Elf *elf;

		elf_version(EV_CURRENT);
		if ((elf = elf_begin(fd, ELF_C_READ, NULL))) {
			read_elf(m, elf);
			elf_end(elf);
		}
		close(fd);
	}
	free(path);
	return m;
}

const char *dbgi_name(struct dbgi *c, const char *build_id, uint64_t offset)
{
	struct dbgi_module *m = *build_id ? module_of(c, build_id) : NULL;
	uint64_t addr;
	size_t lo = 0, hi;

	if (!m || !m->n)
		return NULL;
	addr = m->base + offset;
	hi = m->n;
	while (lo < hi) {	/* the last function starting at or below addr */
		size_t mid = lo + (hi - lo) / 2;

		if (m->fns[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && addr < m->fns[lo - 1].end ? m->fns[lo - 1].name : NULL;
}

void dbgi_close(struct dbgi *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nmods; i++) {
		for (size_t k = 0; k < c->mods[i].n; k++)
			free(c->mods[i].fns[k].name);
		free(c->mods[i].fns);
		free(c->mods[i].build_id);
	}
	free(c->mods);
	c->end(c->client);
	/* not closed: libcurl, which it loads, keeps its global state until
	 * the process ends, and would be found leaked after an unload */
	free(c);
}
