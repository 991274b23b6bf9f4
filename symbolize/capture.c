/*
 * capture.c - the registers of the running thread, for unwinding it later
 * from a copy of its stack (the MPI layer's call paths, the unit test).
 *
 * Written in assembly so that the result describes a well-defined point:
 * the caller right after the call returns (sp above the return address, ip
 * the return address), with every register as the caller holds it there
 * except rax, which the call clobbers anyway.  Hidden: never exported from
 * the runtime.
 */
#include "symbolize.h"

__asm__(".text\n"
	".globl sym_capture_regs\n"
	".hidden sym_capture_regs\n"
	".type sym_capture_regs, @function\n"
	"sym_capture_regs:\n"
	"\t.cfi_startproc\n"
	"\tmovq %rax, 0(%rdi)\n"
	"\tmovq %rdx, 8(%rdi)\n"
	"\tmovq %rcx, 16(%rdi)\n"
	"\tmovq %rbx, 24(%rdi)\n"
	"\tmovq %rsi, 32(%rdi)\n"
	"\tmovq %rdi, 40(%rdi)\n"
	"\tmovq %rbp, 48(%rdi)\n"
	"\tleaq 8(%rsp), %rax\n"
	"\tmovq %rax, 56(%rdi)\n"
	"\tmovq %r8, 64(%rdi)\n"
	"\tmovq %r9, 72(%rdi)\n"
	"\tmovq %r10, 80(%rdi)\n"
	"\tmovq %r11, 88(%rdi)\n"
	"\tmovq %r12, 96(%rdi)\n"
	"\tmovq %r13, 104(%rdi)\n"
	"\tmovq %r14, 112(%rdi)\n"
	"\tmovq %r15, 120(%rdi)\n"
	"\tmovq (%rsp), %rax\n"
	"\tmovq %rax, 128(%rdi)\n"
	"\tret\n"
	"\t.cfi_endproc\n"
	".size sym_capture_regs, .-sym_capture_regs\n");
