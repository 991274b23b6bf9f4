/*
 * decl-files.c - the file a function DIE is declared in, as
 * dwarf_decl_file names it, for resolve.c.
 *
 * dwarf_decl_file asks for its unit's file table, and elfutils 0.188 makes
 * that table by decoding the unit's whole line program: some 0.2-0.4 ms a
 * unit of NAS LU, most of the cost of naming a rank's functions.  The
 * table is all in the line program's header, so here the header alone is
 * read, once per unit, and each file named the way libdw names it
 * (libdw/dwarf_getsrclines.c): an absolute name as it is; otherwise its
 * directory, "/" and the name.  DWARF 2-4 number the files from 1, file 0
 * being "???", and have the unit's DW_AT_comp_dir as directory 0; DWARF 5
 * numbers both from 0.
 *
 * Whatever this reader does not follow (a form it cannot skip, strings in
 * .debug_str_offsets, a file past the header's table, which only the line
 * program can define, a big-endian or compressed section, a split unit)
 * is left to dwarf_decl_file.  A line program that libdw refuses past a
 * well-formed header still has its header's names here.
 */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <gelf.h>
#include "internal.h"

/* The file table of one line program: its Dwarf and offset. */
struct unit_files {
	const void *dbg;
	uint64_t off;
	char **name;		/* [n], each malloc'd */
	uint32_t n;
	bool failed;		/* ask dwarf_decl_file */
};

/* The sections a file table reads, of one Dwarf. */
struct line_sections {
	const void *dbg;
	Elf_Data *line, *line_str, *str;	/* NULL: missing or unusable */
};

/* Reading position in .debug_line; bad once anything was out of bounds. */
struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t take(struct cursor *c, unsigned size)
{
	uint64_t v = 0;

	if (c->bad || (size_t)(c->end - c->p) < size) {
		c->bad = true;
		return 0;
	}
	for (unsigned i = 0; i < size; i++)	/* little-endian, checked */
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += size;
	return v;
}

static uint64_t take_uleb(struct cursor *c)
{
	uint64_t v = 0;

	for (unsigned shift = 0; !c->bad; shift += 7) {
		if (c->p == c->end || shift > 63) {
			c->bad = true;
			break;
		}
		v |= (uint64_t)(*c->p & 0x7f) << shift;
		if (!(*c->p++ & 0x80))
			return v;
	}
	return 0;
}

static const char *take_cstr(struct cursor *c)
{
	const unsigned char *nul = c->bad ? NULL : memchr(c->p, '\0', (size_t)(c->end - c->p));
	const char *s = (const char *)c->p;

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	c->p = nul + 1;
	return s;
}

/* The NUL-terminated string at off in d; NULL when outside it. */
static const char *string_at(const Elf_Data *d, uint64_t off)
{
	if (!d || off >= d->d_size || !memchr((const char *)d->d_buf + off, '\0', d->d_size - off))
		return NULL;
	return (const char *)d->d_buf + off;
}

/* The data of section name in elf, when present, uncompressed, and
 * little-endian like the reader. */
static Elf_Data *section_data(Elf *elf, const char *name)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	const char *ident = elf_getident(elf, NULL);

	if (!ident || ident[EI_DATA] != ELFDATA2LSB || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		const char *n = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;

		if (n && !strcmp(n, name))
			return sh->sh_type == SHT_NOBITS || (sh->sh_flags & SHF_COMPRESSED) ?
			       NULL : elf_getdata(scn, NULL);
	}
	return NULL;
}

/* The sections of dbg, found once. */
static const struct line_sections *sections_of(struct sym_decl_files *c, Dwarf *dbg)
{
	struct line_sections *v;
	Elf *elf;

	for (uint32_t i = 0; i < c->nsecs; i++)
		if (c->secs[i].dbg == dbg)
			return &c->secs[i];
	if (!(v = realloc(c->secs, (c->nsecs + 1) * sizeof(*v))))
		return NULL;
	c->secs = v;
	v = &c->secs[c->nsecs++];
	*v = (struct line_sections){ .dbg = dbg };
	if ((elf = dwarf_getelf(dbg))) {
		v->line = section_data(elf, ".debug_line");
		v->line_str = section_data(elf, ".debug_line_str");
		v->str = section_data(elf, ".debug_str");
	}
	return v;
}

/* A DWARF 5 entry's field: its string (DW_LNCT_path) or number
 * (DW_LNCT_directory_index), or skipped; false on a form not followed. */
static bool take_field(struct cursor *c, const struct line_sections *s, uint64_t form,
		       unsigned offset_size, const char **str, uint64_t *num)
{
	static const uint8_t fixed[][2] = {
		{ DW_FORM_data1, 1 }, { DW_FORM_data2, 2 }, { DW_FORM_data4, 4 },
		{ DW_FORM_data8, 8 },
	};

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (form == fixed[i][0]) {
			*num = take(c, fixed[i][1]);
			return true;
		}
	switch (form) {
	case DW_FORM_string:
		*str = take_cstr(c);
		return true;
	case DW_FORM_line_strp:
		*str = string_at(s->line_str, take(c, offset_size));
		return true;
	case DW_FORM_strp:
		*str = string_at(s->str, take(c, offset_size));
		return true;
	case DW_FORM_udata:
		*num = take_uleb(c);
		return true;
	case DW_FORM_data16:	/* an MD5 */
		take(c, 8);
		take(c, 8);
		return true;
	case DW_FORM_block: {
		uint64_t n = take_uleb(c);

		if (c->bad || n > (uint64_t)(c->end - c->p))
			c->bad = true;
		else
			c->p += n;
		return true;
	}
	default:
		return false;
	}
}

/* One table of the header: its paths and, for files, their directory
 * indexes.  DWARF 2-4 have only the paths of directories in the table;
 * the rest of an entry is read by the caller. */
struct entries {
	const char **path;
	uint64_t *dir;
	uint64_t n;
};

static void entries_release(struct entries *e)
{
	free(e->path);
	free(e->dir);
}

/* Room for n entries, each needing at least one byte of c; false when
 * there is not (or no memory). */
static bool entries_make(struct entries *e, uint64_t n, const struct cursor *c)
{
	e->n = n;
	if (c->bad || n > (uint64_t)(c->end - c->p) + 1)
		return false;
	e->path = calloc(n + 1, sizeof(*e->path));
	e->dir = calloc(n + 1, sizeof(*e->dir));
	return e->path && e->dir;
}

/* A DWARF 5 table (directories or files); false when not followed. */
static bool take_table(struct cursor *c, const struct line_sections *s, unsigned offset_size,
		       struct entries *e)
{
	uint64_t desc[16], form[16];
	unsigned nforms = (unsigned)take(c, 1);

	if (nforms > 16)
		return false;
	for (unsigned i = 0; i < nforms; i++) {
		desc[i] = take_uleb(c);
		form[i] = take_uleb(c);
	}
	if (!entries_make(e, take_uleb(c), c) || (nforms == 0 && e->n))
		return false;
	for (uint64_t k = 0; k < e->n; k++) {
		e->dir[k] = UINT64_MAX;
		for (unsigned i = 0; i < nforms; i++) {
			const char *str = NULL;
			uint64_t num = UINT64_MAX;

			if (!take_field(c, s, form[i], offset_size, &str, &num))
				return false;
			if (desc[i] == DW_LNCT_path)
				e->path[k] = str;
			else if (desc[i] == DW_LNCT_directory_index)
				e->dir[k] = num;
		}
		if (c->bad || !e->path[k])
			return false;
	}
	return true;
}

/* The DWARF 2-4 tables: the directories after comp_dir (directory 0),
 * then the files, each a path, a directory index, a time and a length. */
static bool take_old_tables(struct cursor *c, const char *comp_dir, struct entries *dirs,
			    struct entries *files)
{
	struct cursor count = *c;
	uint64_t nd = 1, nf = 0;

	while (!count.bad && count.p < count.end && *count.p && take_cstr(&count))
		nd++;
	take(&count, 1);
	for (; !count.bad && count.p < count.end && *count.p; nf++) {
		take_cstr(&count);
		take_uleb(&count);
		take_uleb(&count);
		take_uleb(&count);
	}
	if (count.bad || !entries_make(dirs, nd, c) || !entries_make(files, nf, c))
		return false;
	dirs->path[0] = comp_dir;
	for (uint64_t k = 1; k < nd; k++)
		dirs->path[k] = take_cstr(c);
	take(c, 1);
	for (uint64_t k = 0; k < nf; k++) {
		files->path[k] = take_cstr(c);
		files->dir[k] = take_uleb(c);
		take_uleb(c);	/* time */
		take_uleb(c);	/* length */
	}
	return take(c, 1) == 0 && !c->bad;
}

/* dir "/" name, or name alone when it is absolute or dir NULL. */
static char *join(const char *dir, const char *name)
{
	size_t nd = dir && name[0] != '/' ? strlen(dir) : 0, nn = strlen(name);
	char *p = malloc(nd + 1 + nn + 1);

	if (!p)
		return NULL;
	if (nd) {
		memcpy(p, dir, nd);
		p[nd] = '/';
		memcpy(p + nd + 1, name, nn + 1);
	} else {
		memcpy(p, name, nn + 1);
	}
	return p;
}

/* Name u's files from the tables, numbered from first (file 0 "???"
 * before DWARF 5); false when memory is short or a directory index is out
 * of range. */
static bool name_files(struct unit_files *u, unsigned first, const struct entries *dirs,
		       const struct entries *files)
{
	if (!(u->name = calloc(files->n + first, sizeof(*u->name))))
		return false;
	u->n = (uint32_t)(files->n + first);
	if (first && !(u->name[0] = strdup("???")))
		return false;
	for (uint64_t k = 0; k < files->n; k++)
		if (files->dir[k] >= dirs->n ||
		    !(u->name[first + k] = join(dirs->path[files->dir[k]], files->path[k])))
			return false;
	return true;
}

/* Read the header of the line program at off, of a unit with comp_dir and
 * address_size; false when it is not followed here. */
static bool read_table(struct unit_files *u, const struct line_sections *s, uint64_t off,
		       const char *comp_dir, uint8_t address_size)
{
	struct entries dirs = { 0 }, files = { 0 };
	uint64_t unit_length, header_length;
	const unsigned char *header;
	unsigned offset_size = 4, version, opcode_base;
	struct cursor c;
	bool ok;

	if (!s->line || off >= s->line->d_size)
		return false;
	c = (struct cursor){ (const unsigned char *)s->line->d_buf + off,
			     (const unsigned char *)s->line->d_buf + s->line->d_size, false };
	if ((unit_length = take(&c, 4)) == 0xffffffff) {
		unit_length = take(&c, 8);
		offset_size = 8;
	}
	if (c.bad || unit_length > (uint64_t)(c.end - c.p))
		return false;
	c.end = c.p + unit_length;
	version = (unsigned)take(&c, 2);
	if (version < 2 || version > 5 ||
	    (version >= 5 && (take(&c, 1) != address_size || take(&c, 1) != 0)))
		return false;
	header_length = take(&c, offset_size);
	header = c.p;
	take(&c, 1);	/* minimum_instruction_length */
	if (version >= 4 && take(&c, 1) == 0)	/* maximum_operations_per_instruction */
		return false;
	take(&c, 3);	/* default_is_stmt, line_base, line_range */
	opcode_base = (unsigned)take(&c, 1);
	if (c.bad || opcode_base == 0 || (size_t)(c.end - c.p) < opcode_base - 1)
		return false;
	c.p += opcode_base - 1;	/* standard_opcode_lengths */
	ok = version < 5 ? take_old_tables(&c, comp_dir, &dirs, &files) :
			   take_table(&c, s, offset_size, &dirs) &&
			   take_table(&c, s, offset_size, &files);
	/* libdw's check: the tables end where the header says */
	ok = ok && !c.bad && (uint64_t)(c.p - header) == header_length &&
	     name_files(u, version < 5, &dirs, &files);
	entries_release(&dirs);
	entries_release(&files);
	return ok;
}

/* The file table of the unit whose DIE is cu, read when missing; NULL
 * when dwarf_decl_file must answer.  Kept by line program, as libdw
 * keeps them. */
static const struct unit_files *files_of(struct sym_decl_files *c, Dwarf_Die *cu)
{
	Dwarf *dbg = dwarf_cu_getdwarf(cu->cu);
	const struct line_sections *s;
	struct unit_files *u;
	Dwarf_Attribute a;
	Dwarf_Word stmt;
	Dwarf_Half version;
	uint8_t unit_type, address_size;

	if (dwarf_formudata(dwarf_attr(cu, DW_AT_stmt_list, &a), &stmt) != 0)
		return NULL;
	for (uint32_t i = 0; i < c->n; i++)
		if (c->v[i].dbg == dbg && c->v[i].off == stmt)
			return c->v[i].failed ? NULL : &c->v[i];
	if (!(u = realloc(c->v, (c->n + 1) * sizeof(*u))))
		return NULL;
	c->v = u;
	u = &c->v[c->n++];
	*u = (struct unit_files){ .dbg = dbg, .off = stmt, .failed = true };
	if (dwarf_cu_info(cu->cu, &version, &unit_type, NULL, NULL, NULL, &address_size,
			  NULL) != 0 ||
	    (unit_type != DW_UT_compile && unit_type != DW_UT_partial) ||
	    !(s = sections_of(c, dbg)))
		return NULL;
	u->failed = !read_table(u, s, stmt,
				dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a)),
				address_size);
	return u->failed ? NULL : u;
}

const char *sym_decl_file(struct sym_decl_files *c, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Die cu;
	const struct unit_files *u;

	if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_file, &a), &idx) != 0)
		return NULL;
	/* the attribute's own unit: an abstract origin may be in another */
	if (!dwarf_cu_die(a.cu, &cu, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    !(u = files_of(c, &cu)) || idx >= u->n) {
		c->fallbacks++;
		return dwarf_decl_file(die);
	}
	return u->name[idx];
}

void sym_decl_files_release(struct sym_decl_files *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		for (uint32_t k = 0; k < c->v[i].n; k++)
			free(c->v[i].name[k]);
		free(c->v[i].name);
	}
	free(c->v);
	free(c->secs);
	memset(c, 0, sizeof(*c));
}
