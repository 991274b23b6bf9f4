/*
 * symtab.c - interning tables for modules (by path and build id) and frames
 * (by module, function, file and line).  Each table is a growable array plus
 * an open-addressing index whose slots hold id + 1 (0 marks an empty slot);
 * both indexes share the probing code below and differ only in their hash
 * and equality callbacks.  Last, the rule that groups frames into the
 * functions a report shows.
 */
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "symtab.h"

#define SYM_MIN_SLOTS 64u
#define SYM_MAX_SLOTS (UINT32_C(1) << 31)

/* One index: the slot array, its size, and how its keys hash and compare. */
struct sym_index {
	uint32_t **slots;
	uint32_t *nslots;
	uint32_t count;		/* entries stored */
	uint64_t (*hash)(const struct symtab *st, uint32_t id);
	int (*equal)(const struct symtab *st, uint32_t id, const void *key);
};

static uint64_t sym_hash_str(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s) + 1);
}

static uint64_t sym_module_hash(const struct sym_module *m)
{
	return hash_u64(sym_hash_str(sym_hash_str(HASH_SEED, m->path), m->build_id));
}

static uint64_t sym_frame_hash(const struct sym_frame *f)
{
	uint64_t h = hash_u64((uint64_t)f->module << 32 | f->line);

	return hash_u64(sym_hash_str(sym_hash_str(h, f->function), f->file));
}

static uint64_t sym_module_hash_id(const struct symtab *st, uint32_t id)
{
	return sym_module_hash(&st->modules[id]);
}

static uint64_t sym_frame_hash_id(const struct symtab *st, uint32_t id)
{
	return sym_frame_hash(&st->frames[id]);
}

static int sym_module_equal(const struct symtab *st, uint32_t id, const void *key)
{
	const struct sym_module *a = &st->modules[id], *b = key;

	return !strcmp(a->path, b->path) && !strcmp(a->build_id, b->build_id);
}

static int sym_frame_equal(const struct symtab *st, uint32_t id, const void *key)
{
	const struct sym_frame *a = &st->frames[id], *b = key;

	return a->module == b->module && a->line == b->line &&
	       !strcmp(a->function, b->function) && !strcmp(a->file, b->file);
}

/* Rebuild ix with n slots.  Returns 0, or -1 with ix unchanged. */
static int sym_rehash(const struct symtab *st, struct sym_index *ix, uint32_t n)
{
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -1;
	for (uint32_t id = 0; id < ix->count; id++) {
		uint32_t i = (uint32_t)ix->hash(st, id) & (n - 1);

		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = id + 1;
	}
	free(*ix->slots);
	*ix->slots = slots;
	*ix->nslots = n;
	return 0;
}

/* Find key (hashing to h) in ix.  Returns its id, or UINT32_MAX with *slot
 * set to the empty slot where it belongs. */
static uint32_t sym_find(const struct symtab *st, const struct sym_index *ix,
			 uint64_t h, const void *key, uint32_t *slot)
{
	uint32_t mask = *ix->nslots - 1, i, v;

	for (i = (uint32_t)h & mask; (v = (*ix->slots)[i]); i = (i + 1) & mask)
		if (ix->equal(st, v - 1, key))
			return v - 1;
	*slot = i;
	return UINT32_MAX;
}

/* Look key (hashing to h) up in ix.  Returns its id when found.  Otherwise
 * returns UINT32_MAX and sets *slot to the empty slot for the new entry,
 * having made sure the index has room for it, or to UINT32_MAX when memory
 * is short. */
static uint32_t sym_lookup(const struct symtab *st, struct sym_index *ix,
			   uint64_t h, const void *key, uint32_t *slot)
{
	uint32_t id;

	*slot = UINT32_MAX;
	if (*ix->nslots == 0 && sym_rehash(st, ix, SYM_MIN_SLOTS))
		return UINT32_MAX;
	id = sym_find(st, ix, h, key, slot);
	if (id != UINT32_MAX)
		return id;
	if ((uint64_t)(ix->count + 1) * 4 > (uint64_t)*ix->nslots * 3) {
		*slot = UINT32_MAX;
		if (*ix->nslots >= SYM_MAX_SLOTS || sym_rehash(st, ix, *ix->nslots * 2))
			return UINT32_MAX;
		sym_find(st, ix, h, key, slot);
	}
	return UINT32_MAX;
}

/* Make room for one more element in an array of *alloc elements of size
 * elem.  Returns 0 or -1 (memory short, array unchanged). */
static int sym_reserve(void **array, uint32_t count, uint32_t *alloc, size_t elem)
{
	uint32_t n;
	void *a;

	if (count < *alloc)
		return 0;
	if (*alloc > UINT32_MAX / 4)
		return -1;
	n = *alloc ? *alloc * 2 : 16;
	a = realloc(*array, (size_t)n * elem);
	if (!a)
		return -1;
	*array = a;
	*alloc = n;
	return 0;
}

/* See symtab.h. */
void symtab_init(struct symtab *st)
{
	memset(st, 0, sizeof(*st));
}

/* See symtab.h. */
void symtab_release(struct symtab *st)
{
	for (uint32_t i = 0; i < st->nmodules; i++)
		free(st->modules[i].path);	/* build_id is in its block */
	for (uint32_t i = 0; i < st->nframes; i++)
		free(st->frames[i].function);	/* file is in its block */
	free(st->modules);
	free(st->frames);
	free(st->slots);
	free(st->mod_slots);
	symtab_init(st);
}

/* Copy a and b into one block: *da owns it, *db points into it.  A
 * profile interns a few hundred frames and is dropped after the merge,
 * so this halves the allocations of reading one.  Returns 0 or -1. */
static int sym_dup2(const char *a, const char *b, char **da, char **db)
{
	size_t la = strlen(a) + 1, lb = strlen(b) + 1;

	if (!(*da = malloc(la + lb)))
		return -1;
	memcpy(*da, a, la);
	*db = memcpy(*da + la, b, lb);
	return 0;
}

/* See symtab.h. */
uint32_t symtab_module(struct symtab *st, const char *path, const char *build_id)
{
	struct sym_module key = { (char *)(path ? path : ""),
				  (char *)(build_id ? build_id : "") };
	struct sym_index ix = { &st->mod_slots, &st->nmod_slots, st->nmodules,
				sym_module_hash_id, sym_module_equal };
	struct sym_module *m;
	uint32_t slot, id;

	id = sym_lookup(st, &ix, sym_module_hash(&key), &key, &slot);
	if (id != UINT32_MAX || slot == UINT32_MAX)
		return id == UINT32_MAX ? SYMTAB_NO_MODULE : id;
	if (st->nmodules >= SYMTAB_NO_MODULE - 1 ||
	    sym_reserve((void **)&st->modules, st->nmodules, &st->modules_alloc,
			sizeof(*st->modules)))
		return SYMTAB_NO_MODULE;
	m = &st->modules[st->nmodules];
	if (sym_dup2(key.path, key.build_id, &m->path, &m->build_id))
		return SYMTAB_NO_MODULE;
	st->mod_slots[slot] = st->nmodules + 1;
	return st->nmodules++;
}

/* See symtab.h. */
uint32_t symtab_frame(struct symtab *st, uint32_t module, const char *function,
		      const char *file, uint32_t line)
{
	struct sym_frame key = { module, (char *)(function ? function : ""),
				 (char *)(file ? file : ""), line };
	struct sym_index ix = { &st->slots, &st->nslots, st->nframes,
				sym_frame_hash_id, sym_frame_equal };
	struct sym_frame *f;
	uint32_t slot, id;

	if (module != SYMTAB_NO_MODULE && module >= st->nmodules)
		return UINT32_MAX;
	id = sym_lookup(st, &ix, sym_frame_hash(&key), &key, &slot);
	if (id != UINT32_MAX || slot == UINT32_MAX)
		return id;
	if (st->nframes >= UINT32_MAX - 1 ||
	    sym_reserve((void **)&st->frames, st->nframes, &st->frames_alloc,
			sizeof(*st->frames)))
		return UINT32_MAX;
	f = &st->frames[st->nframes];
	if (sym_dup2(key.function, key.file, &f->function, &f->file))
		return UINT32_MAX;
	f->module = module;
	f->line = line;
	st->slots[slot] = st->nframes + 1;
	return st->nframes++;
}

/* See symtab.h. */
int symtab_import(struct symtab *to, const struct symtab *from, uint32_t *fmap, uint32_t *bad)
{
	uint32_t *mmap = malloc(((size_t)from->nmodules + 1) * sizeof(*mmap));
	int rc = 0;

	if (!mmap)
		return -1;
	for (uint32_t m = 0; m < from->nmodules && !rc; m++)
		if ((mmap[m] = symtab_module(to, from->modules[m].path, from->modules[m].build_id)) ==
		    SYMTAB_NO_MODULE)
			rc = -1;
	for (uint32_t f = 0; f < from->nframes && !rc; f++) {
		const struct sym_frame *sf = &from->frames[f];
		uint32_t m = SYMTAB_NO_MODULE;

		if (sf->module != SYMTAB_NO_MODULE && sf->module >= from->nmodules) {
			*bad = f;
			rc = -2;
		} else {
			if (sf->module != SYMTAB_NO_MODULE)
				m = mmap[sf->module];
			fmap[f] = symtab_frame(to, m, sf->function, sf->file, sf->line);
			rc = fmap[f] == UINT32_MAX ? -1 : 0;
		}
	}
	free(mmap);
	return rc;
}

bool symtab_runtime_module(const struct symtab *st, uint32_t m)
{
	const char *path, *slash;

	if (m >= st->nmodules || !st->modules[m].path)
		return false;
	path = st->modules[m].path;
	slash = strrchr(path, '/');
	return !strncmp(slash ? slash + 1 : path, SYMTAB_RUNTIME, strlen(SYMTAB_RUNTIME));
}

size_t symtab_function_len(const struct symtab *st, const struct sym_frame *f)
{
	if (!strncmp(f->function, "[0x", 3))
		return 3;
	if (symtab_runtime_module(st, f->module))
		return strcspn(f->function, ".");
	return strlen(f->function);
}
