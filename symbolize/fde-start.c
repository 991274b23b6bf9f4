/*
 * fde-start.c - the start of the function that holds an address no symbol
 * names, for resolve.c.
 *
 * Stripped libraries (an MPI's components, libc's static functions) name
 * only what they export.  Named by its own address, each instruction
 * sampled in such code was a frame of its own: a profile grew with the
 * run's length, one node per address seen once (on a 10 s ring program a
 * rank's file took 17 KB, on 100 s 24 KB, most of the difference such
 * nodes).  The unwind tables still know every function: each has an FDE,
 * and FDEs do not overlap, so when the CFI covers an address the FDE that
 * holds it is the one with the greatest start at or below it.  The sorted
 * table of FDE starts in PT_GNU_EH_FRAME (.eh_frame_hdr) finds it by a
 * binary search in the mapped file.  Only the encoding every linker
 * writes for that table (4-byte starts relative to the header) is read;
 * another gives no start, and the address keeps its own name.
 */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include "internal.h"

enum {
	EH_PE_OMIT = 0xff,
	EH_PE_UDATA4 = 0x03,
	EH_PE_SDATA4 = 0x0b,
	EH_PE_UDATA8 = 0x04,
	EH_PE_SDATA8 = 0x0c,
	EH_PE_DATAREL_SDATA4 = 0x3b,
};

/* The header's bytes in the file mapped whole, and its link-time address. */
static const uint8_t *eh_frame_hdr(Elf *elf, size_t *size, GElf_Addr *vaddr)
{
	size_t nphdr, filesize;
	const char *file = elf_rawfile(elf, &filesize);

	if (!file || elf_getphdrnum(elf, &nphdr) != 0)
		return NULL;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		if (ph.p_offset > filesize || ph.p_filesz > filesize - ph.p_offset)
			return NULL;
		*size = ph.p_filesz;
		*vaddr = ph.p_vaddr;
		return (const uint8_t *)file + ph.p_offset;
	}
	return NULL;
}

static int32_t read_s32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Bytes of a pointer encoded as enc (its format, the low nibble), 0 when
 * unread here. */
static size_t encoded_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case EH_PE_UDATA4: case EH_PE_SDATA4:
		return 4;
	case EH_PE_UDATA8: case EH_PE_SDATA8:
		return 8;
	default:
		return 0;
	}
}

/* The greatest FDE start at or below pc (link-time addresses) in the
 * header's table; false when it has none or is in another encoding. */
static bool table_start(const uint8_t *hdr, size_t size, GElf_Addr hdr_vaddr, GElf_Addr pc,
			GElf_Addr *start)
{
	size_t skip, lo = 0, hi, n;
	const uint8_t *table;

	if (size < 4 || hdr[0] != 1 || hdr[1] == EH_PE_OMIT || hdr[2] != EH_PE_UDATA4 ||
	    hdr[3] != EH_PE_DATAREL_SDATA4 || !(skip = encoded_size(hdr[1])) ||
	    size < 4 + skip + 4)
		return false;
	n = (uint32_t)read_s32(hdr + 4 + skip);
	table = hdr + 4 + skip + 4;
	if (n == 0 || n > (size - (size_t)(table - hdr)) / 8)
		return false;
	/* The first entry whose start is past pc; the one before holds it. */
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (hdr_vaddr + (GElf_Addr)(int64_t)read_s32(table + mid * 8) <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	*start = hdr_vaddr + (GElf_Addr)(int64_t)read_s32(table + (lo - 1) * 8);
	return true;
}

/* Whether mod's .eh_frame has a row for addr (a process address). */
static bool cfi_covers(Dwfl_Module *mod, uint64_t addr)
{
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	Dwarf_Frame *frame = NULL;
	bool covered = cfi && dwarf_cfi_addrframe(cfi, addr - bias, &frame) == 0;

	free(frame);
	return covered;
}

bool sym_fde_start(Dwfl_Module *mod, uint64_t addr, uint64_t *start)
{
	GElf_Addr bias, hdr_vaddr, link_start;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t size;
	const uint8_t *hdr = elf ? eh_frame_hdr(elf, &size, &hdr_vaddr) : NULL;

	if (!hdr || !table_start(hdr, size, hdr_vaddr, addr - bias, &link_start) ||
	    !cfi_covers(mod, addr))
		return false;
	*start = link_start + bias;
	return true;
}
