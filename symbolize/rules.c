/*
 * rules.c - the fast unwinder: cached CFI rules per lookup address.
 *
 * libdwfl re-derives a frame's CFI (FDE search, CIE and FDE programs,
 * expression evaluation, several mallocs) on every step, about a
 * microsecond a frame.  Almost every x86-64 frame follows a rule of the
 * same shape: CFA = rsp or rbp + constant, the return address and saved
 * callee-saved registers at CFA + constant.  The first time a lookup
 * address is seen we ask libdw for its rule (dwarf_cfi_addrframe) and keep
 * it in the session's per-address table; later samples step through cached
 * rules with a few word reads, the stack copy's lines asked for at once.
 * Where a module has no CFI for an address the step is libdwfl's own
 * fallback, by the frame pointer.  Anything
 * outside that shape (CFA or register expressions beyond base + constant,
 * signal frames, a rule that needs a register we do not follow, no CFI
 * where .debug_frame may have it) marks the address "slow" and the whole
 * sample goes to libdwfl (unwind.c), which knows every case.
 */
#include <stdlib.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "internal.h"

/* Bytes of a stack copy prefetched at most: the stacks of a few frames. */
#define SYM_PREFETCH_MAX 4096

/* The registers followed, in the order of struct sym_rule.rules. */
static const int8_t sym_followed[SYM_NRULES] = { 3, SYM_REG_BP, 12, 13, 14, 15, SYM_REG_IP };

/*
 * Reduce a DWARF expression to base + off: base -1 for the CFA or a DWARF
 * register.  *value is set when it ends in DW_OP_stack_value.  Returns
 * false for anything else.
 */
static bool sym_expr(const Dwarf_Op *ops, size_t nops, int8_t *base,
		     int32_t *off, bool *value)
{
	int64_t o = 0;
	int b = -2;	/* -2: no base yet */

	*value = false;
	for (size_t i = 0; i < nops; i++) {
		uint8_t a = ops[i].atom;
		if (a == DW_OP_call_frame_cfa && b == -2)
			b = -1;
		else if (a >= DW_OP_breg0 && a <= DW_OP_breg16 && b == -2)
			b = a - DW_OP_breg0, o += (int64_t)ops[i].number;
		else if (a == DW_OP_bregx && b == -2 && ops[i].number <= 16)
			b = (int)ops[i].number, o += (int64_t)ops[i].number2;
		else if (a == DW_OP_plus_uconst && b != -2)
			o += (int64_t)ops[i].number;
		else if ((a == DW_OP_consts || a == DW_OP_constu) && i + 1 < nops &&
			 (ops[i + 1].atom == DW_OP_plus || ops[i + 1].atom == DW_OP_minus))
			o += ops[i + 1].atom == DW_OP_plus ? (int64_t)ops[i].number :
							    -(int64_t)ops[i].number, i++;
		else if (a == DW_OP_stack_value && i + 1 == nops)
			*value = true;
		else
			return false;
	}
	if (b == -2 || o < INT32_MIN || o > INT32_MAX)
		return false;
	*base = (int8_t)b;
	*off = (int32_t)o;
	return true;
}

/* The rule for one followed register; false when not of a cached shape. */
static bool sym_reg_rule(Dwarf_Frame *frame, int reg, struct sym_reg_rule *r)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	bool value;

	if (dwarf_frame_register(frame, reg, mem, &ops, &nops) != 0)
		return false;
	if (nops == 0) {
		r->how = ops ? SYM_UNDEF : SYM_SAME;
		return true;
	}
	if (!sym_expr(ops, nops, &r->base, &r->off, &value))
		return false;
	r->how = value ? SYM_VAL : SYM_AT;
	return true;
}

/* Fill r's rule from frame; returns the rule state. */
static uint8_t sym_frame_rule(Dwarf_Frame *frame, struct sym_row *r)
{
	Dwarf_Op *ops;
	size_t nops;
	bool signal, value;

	if (dwarf_frame_info(frame, NULL, NULL, &signal) != SYM_REG_IP || signal)
		return SYM_RULE_SLOW;
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops == 0 ||
	    !sym_expr(ops, nops, &r->rule.cfa_reg, &r->rule.cfa_off, &value) ||
	    r->rule.cfa_reg < 0)
		return SYM_RULE_SLOW;
	for (int i = 0; i < SYM_NRULES; i++)
		if (!sym_reg_rule(frame, sym_followed[i], &r->rule.rules[i]))
			return SYM_RULE_SLOW;
	return r->rule.rules[SYM_NRULES - 1].how == SYM_UNDEF ? SYM_RULE_LAST :
								  SYM_RULE_OK;
}

/* The rule of the .eh_frame row that holds addr, kept for the row's
 * addresses in s's rows (s NULL: not kept); false when .eh_frame has
 * none. */
static bool sym_eh_row(struct sym_session *s, Dwfl_Module *mod, uint64_t addr,
		       struct sym_row *row)
{
	Dwarf_Addr bias, hi;
	Dwarf_CFI *cfi = dwfl_module_eh_cfi(mod, &bias);
	Dwarf_Frame *frame = NULL;

	if (!cfi || dwarf_cfi_addrframe(cfi, addr - bias, &frame) != 0)
		return false;
	row->state = sym_frame_rule(frame, row);
	/* The row's end is right, but not its start: after a
	 * DW_CFA_restore_state libdw reports the start of the state restored
	 * (a function's code after an early return), so the row is kept from
	 * addr on. */
	if (s && dwarf_frame_info(frame, NULL, &hi, NULL) >= 0) {
		row->lo = addr;
		row->hi = hi + bias;
		sym_row_add(&s->rows, row);
	}
	free(frame);
	return true;
}

/* Where a module has no CFI for addr, what libdwfl does next (elfutils'
 * x86-64 backend): a step by the frame pointer.  The CFA is rbp + 16, the
 * return address and the caller's rbp are the two words below it, and no
 * other register is known. */
static void sym_fp_row(struct sym_row *row)
{
	row->rule.cfa_reg = SYM_REG_BP;
	row->rule.cfa_off = 16;
	for (int i = 0; i < SYM_NRULES; i++) {
		struct sym_reg_rule *r = &row->rule.rules[i];

		r->how = SYM_UNDEF;
		if (sym_followed[i] == SYM_REG_BP || sym_followed[i] == SYM_REG_IP) {
			r->how = SYM_AT;
			r->base = -1;
			r->off = sym_followed[i] == SYM_REG_IP ? -8 : -16;
		}
	}
	row->state = SYM_RULE_OK;
}

/* The rule of the .debug_frame row that holds addr, not kept: another
 * address of the row may have an .eh_frame row, which comes first. */
static void sym_debug_row(Dwfl_Module *mod, uint64_t addr, struct sym_row *row)
{
	Dwarf_Addr bias;
	Dwarf_CFI *cfi = dwfl_module_dwarf_cfi(mod, &bias);
	Dwarf_Frame *frame = NULL;

	row->state = SYM_RULE_SLOW;
	if (cfi && dwarf_cfi_addrframe(cfi, addr - bias, &frame) == 0)
		row->state = sym_frame_rule(frame, row);
	free(frame);
}

uint8_t sym_rule_of(struct sym_session *s, uint64_t addr, struct sym_row *row, bool rows)
{
	const struct sym_row *known = rows ? sym_row_find(&s->rows, addr) : NULL;
	Dwfl_Module *mod;

	memset(row, 0, sizeof(*row));
	if (known) {
		*row = *known;
		return row->state;
	}
	if (!(mod = sym_module_at(s, addr)))
		return SYM_RULE_NONE;
	if (sym_eh_row(rows ? s : NULL, mod, addr, row))
		return row->state;
	/* .debug_frame is read where the module's own file has one, or when
	 * separate debug files are read: libdwfl looks for it in a separate
	 * debug file too, and opening that file's DWARF decompresses all of
	 * it (glibc's, 90-110 ms of CPU), to find none on x86-64, where the
	 * CFI is in .eh_frame */
	if (s->separate_debug || sym_own_section(mod, ".debug_frame"))
		sym_debug_row(mod, addr, row);
	else
		sym_fp_row(row);
	return row->state;
}

/* The rule for the step from e->addr into e; returns its state. */
static uint8_t sym_derive_rule(struct sym_session *s, struct sym_pc *e)
{
	struct sym_row row;
	uint8_t state = sym_rule_of(s, e->addr, &row, true);

	if (state != SYM_RULE_OK && state != SYM_RULE_LAST)
		return state;
	e->rule = sym_rule_intern(&s->pcs, &row.rule);
	return e->rule == UINT32_MAX ? SYM_RULE_SLOW : state;	/* no memory: libdwfl */
}

/* The registers of one frame; known has bit r set when regs[r] is. */
struct sym_regs {
	uint64_t r[SYM_NREGS];
	uint32_t known;
};

/* Value of base (+ off) in cur; false when base is a register not known. */
static bool sym_base(const struct sym_regs *cur, uint64_t cfa, int8_t base,
		     int32_t off, uint64_t *v)
{
	if (base >= 0 && !(cur->known & (1u << base)))
		return false;
	*v = (base < 0 ? cfa : cur->r[base]) + (uint64_t)(int64_t)off;
	return true;
}

/*
 * Ask for the part of st's copy that the last unwind read.
 * The kernel wrote the copy tens of milliseconds ago and it has left the
 * cache.  Read frame by frame, each line is a miss the next frame waits
 * for: on NAS LU these reads were a sixth of the drain thread's time.
 * Samples of a program have stacks of a similar depth, and lines asked for
 * together come in together.
 */
static void sym_prefetch_stack(uint32_t reach, const struct sym_stack *st)
{
	uint64_t end = reach < st->size ? reach : st->size;

	if (end > SYM_PREFETCH_MAX)
		end = SYM_PREFETCH_MAX;
	for (uint64_t off = 0; off < end; off += 64)
		__builtin_prefetch(st->data + off);
}

/*
 * One step with e's rule from cur into next, raising *reach to the end of
 * the words read in the stack copy.  Returns 1 on success, 0 when the
 * stack ends here cut (a read failed), -1 when libdwfl must do it.
 */
static int sym_step(const struct sym_session *s, const struct sym_rule *e,
		    const struct sym_regs *cur, struct sym_regs *next, uint64_t *reach)
{
	uint64_t cfa, v;

	if (!sym_base(cur, 0, e->cfa_reg, e->cfa_off, &cfa))
		return -1;
	next->known = 1u << SYM_REG_SP;
	next->r[SYM_REG_SP] = cfa;
	for (int i = 0; i < SYM_NRULES; i++) {
		const struct sym_reg_rule *r = &e->rules[i];
		int reg = sym_followed[i];
		if (r->how == SYM_UNDEF)
			continue;
		if (r->how == SYM_SAME) {
			next->r[reg] = cur->r[reg];
			next->known |= cur->known & (1u << reg);
			continue;
		}
		if (!sym_base(cur, cfa, r->base, r->off, &v))
			return -1;
		if (r->how == SYM_AT && v + 8 > s->cur->regs[SYM_REG_SP] + *reach)
			*reach = v + 8 - s->cur->regs[SYM_REG_SP];
		if (r->how == SYM_AT && !sym_read_word(s, v, &v)) {
			if (reg == SYM_REG_IP)
				return 0;
			continue;	/* unknown in the caller, as in libdwfl */
		}
		next->r[reg] = v;
		next->known |= 1u << reg;
	}
	return next->known & (1u << SYM_REG_IP) ? 1 : -1;
}

int sym_fast_unwind(struct sym_session *s, const struct sym_stack *st,
		    uint64_t *addrs, int max, bool *complete)
{
	struct sym_regs regs[2];
	uint64_t reach = 0;
	int n = 0, c = 0;

	sym_prefetch_stack(s->reach, st);
	memcpy(regs[0].r, st->regs, sizeof regs[0].r);
	regs[0].known = (1u << SYM_NREGS) - 1;
	s->cur = st;
	*complete = false;
	for (;;) {
		uint64_t pc = regs[c].r[SYM_REG_IP];
		if (n > 0 && pc == 0) {
			*complete = true;	/* as libdwfl: pc 0 ends the stack */
			break;
		}
		if (n == max)
			break;
		if (s->out_sp)
			s->out_sp[n] = regs[c].r[SYM_REG_SP];
		addrs[n] = n == 0 ? pc : pc - 1;
		struct sym_pc *e = sym_pc_get(&s->pcs, addrs[n++]);
		if (e && e->rule_state == SYM_RULE_NONE)
			e->rule_state = sym_derive_rule(s, e);
		if (e && e->rule_state == SYM_RULE_NONE && !s->missed && sym_refresh_due(s)) {
			s->missed = true;	/* perhaps mapped since: re-read, then again */
			n = -1;
			break;
		}
		if (e && e->rule_state == SYM_RULE_NONE && n > 1)
			break;	/* a return address in no module: a cut stack */
		if (!e || e->rule_state == SYM_RULE_SLOW ||
		    e->rule_state == SYM_RULE_NONE) {
			n = -1;
			break;
		}
		if (e->rule_state == SYM_RULE_LAST) {
			*complete = true;
			break;
		}
		int rc = sym_step(s, &s->pcs.rules[e->rule], &regs[c], &regs[!c], &reach);
		if (rc < 0) {
			n = -1;
			break;
		}
		if (rc == 0 || regs[!c].r[SYM_REG_SP] <= regs[c].r[SYM_REG_SP])
			break;	/* cut stack, or no progress: a bad frame */
		c = !c;
	}
	s->cur = NULL;
	s->reach = reach < st->size ? (uint32_t)reach : (uint32_t)st->size;
	return n;
}
