/*
 * local-ops.c - the predefined operators that the fused allreduce's
 * operator applies itself (local-ops.h): loops generated from the lists
 * below, each taken only once it gave what MPI_Reduce_local gives, to the
 * bit, on a probe of every pair of awkward values.
 *
 * The probe is what makes a loop of ours safe: an MPI may order the
 * operands of an operator either way (a NaN's payload, MPI_MAX of -0
 * and +0 tell), or apply another type's (Open MPI 4.1 compares
 * MPI_UNSIGNED_LONG as signed).  So each operator comes in both orders
 * and the first that agrees is used; where none does, MPI applies it.
 * Signed sums and products are computed unsigned, where C defines the
 * wrap-around that MPI's loops get from the machine.  Elements are moved
 * with memcpy: the fused data lies after the piggyback, where MPI's
 * buffers put it, aligned or not.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "local-ops.h"

/* the operators on a type: X(type's id, MPI's datatype, C type,
 * operator's id, MPI's operator, the result of x and y); W: the type
 * whose arithmetic wraps */
#define INT_OPS(X, ID, MT, T, W)                                             \
	X(ID, MT, T, sum, MPI_SUM, (T)((W)x + (W)y))                         \
	X(ID, MT, T, prod, MPI_PROD, (T)((W)x * (W)y))                       \
	X(ID, MT, T, max, MPI_MAX, x > y ? x : y)                            \
	X(ID, MT, T, min, MPI_MIN, x < y ? x : y)                            \
	X(ID, MT, T, band, MPI_BAND, x & y)                                  \
	X(ID, MT, T, bor, MPI_BOR, x | y)                                    \
	X(ID, MT, T, bxor, MPI_BXOR, x ^ y)                                  \
	X(ID, MT, T, land, MPI_LAND, (T)(x && y))                            \
	X(ID, MT, T, lor, MPI_LOR, (T)(x || y))                              \
	X(ID, MT, T, lxor, MPI_LXOR, (T)(!x != !y))
#define FLOAT_OPS(X, ID, MT, T, W)                                           \
	X(ID, MT, T, sum, MPI_SUM, x + y)                                    \
	X(ID, MT, T, prod, MPI_PROD, x * y)                                  \
	X(ID, MT, T, max, MPI_MAX, x > y ? x : y)                            \
	X(ID, MT, T, min, MPI_MIN, x < y ? x : y)

/* the types: X(their operators, id, MPI's datatype, C type, W) */
#define LOCAL_TYPES(X)                                                       \
	X(INT_OPS, int, MPI_INT, int, unsigned)                              \
	X(INT_OPS, long, MPI_LONG, long, unsigned long)                      \
	X(INT_OPS, llong, MPI_LONG_LONG, long long, unsigned long long)      \
	X(INT_OPS, uint, MPI_UNSIGNED, unsigned, unsigned)                   \
	X(INT_OPS, ulong, MPI_UNSIGNED_LONG, unsigned long, unsigned long)   \
	X(INT_OPS, ullong, MPI_UNSIGNED_LONG_LONG, unsigned long long,       \
	  unsigned long long)                                                \
	X(FLOAT_OPS, float, MPI_FLOAT, float, float)                         \
	X(FLOAT_OPS, double, MPI_DOUBLE, double, double)

/* inout = f(in, inout) with x the element of FIRST, y the other's */
#define LOOP(NAME, T, EXPR, FIRST)                                           \
	static void NAME(const void *in, void *inout, int count)             \
	{                                                                    \
		const char *s = in;                                          \
		char *d = inout;                                             \
                                                                             \
		for (size_t i = 0; i < (size_t)count; i++) {                 \
			T a, b, r, x, y;                                     \
                                                                             \
			memcpy(&a, s + i * sizeof(T), sizeof(T));            \
			memcpy(&b, d + i * sizeof(T), sizeof(T));            \
			x = FIRST ? a : b;                                   \
			y = FIRST ? b : a;                                   \
			r = (EXPR);                                          \
			memcpy(d + i * sizeof(T), &r, sizeof(T));            \
		}                                                            \
	}
#define LOOPS(ID, MT, T, OPID, OP, EXPR)                                     \
	LOOP(op_##ID##_##OPID##_in, T, EXPR, 1)                              \
	LOOP(op_##ID##_##OPID##_inout, T, EXPR, 0)
#define DEFINE_LOOPS(OPS, ID, MT, T, W) OPS(LOOPS, ID, MT, T, W)
LOCAL_TYPES(DEFINE_LOOPS)

struct local_op {
	MPI_Op op;
	MPI_Datatype type;
	pmpi_local_op *fn;
};
#define ENTRY(ID, MT, T, OPID, OP, EXPR)                                     \
	{ OP, MT, op_##ID##_##OPID##_in }, { OP, MT, op_##ID##_##OPID##_inout },
#define ENTRIES(OPS, ID, MT, T, W) OPS(ENTRY, ID, MT, T, W)

/* The awkward values of a 4- and an 8-byte type, integer or floating:
 * zero, one, all ones (a NaN), the largest and the smallest integer (-0),
 * 1.5, -2.25, two NaNs, the infinities, the largest finite. */
static const uint32_t probe32[] = { 0, 1, UINT32_MAX, 0x7fffffff, 0x80000000, 0x3fc00000,
				    0xc0100000, 0x7fc00001, 0x7fc00002, 0x7f800000, 0xff800000,
				    0x7f7fffff };
static const uint64_t probe64[] = { 0, 1, UINT64_MAX, 0x7fffffffffffffff, 0x8000000000000000,
				    0x3ff8000000000000, 0xc002000000000000, 0x7ff8000000000001,
				    0x7ff8000000000002, 0x7ff0000000000000, 0xfff0000000000000,
				    0x7fefffffffffffff };
#define PROBES (sizeof(probe64) / sizeof(probe64[0]))
_Static_assert(sizeof(probe32) / sizeof(probe32[0]) == PROBES, "one probe per 4- and 8-byte value");

/* Whether fn gives what MPI gives for op on type (size bytes) on every
 * pair of the probe's values. */
static bool agrees(pmpi_local_op *fn, MPI_Op op, MPI_Datatype type, int size)
{
	unsigned char in[PROBES * PROBES * 8], ours[sizeof(in)], mpis[sizeof(in)];
	int n = 0;

	if (size != 4 && size != 8)
		return false;
	for (size_t i = 0; i < PROBES; i++)
		for (size_t j = 0; j < PROBES; j++, n++) {
			const void *x = size == 4 ? (const void *)&probe32[i] : (const void *)&probe64[i];
			const void *y = size == 4 ? (const void *)&probe32[j] : (const void *)&probe64[j];

			memcpy(in + n * size, x, (size_t)size);
			memcpy(ours + n * size, y, (size_t)size);
		}
	memcpy(mpis, ours, sizeof(ours));
	fn(in, ours, n);
	return PMPI_Reduce_local(in, mpis, n, type, op) == MPI_SUCCESS &&
	       !memcmp(ours, mpis, (size_t)n * (size_t)size);
}

pmpi_local_op *pmpi_local_op_find(MPI_Op op, MPI_Datatype type)
{
	/* MPI's handles need not be constants: built at each look, which
	 * is once per fused (datatype, count, operator) */
	const struct local_op all[] = { LOCAL_TYPES(ENTRIES) };
	int size;

	if (PMPI_Type_size(type, &size) != MPI_SUCCESS)
		return NULL;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i].op == op && all[i].type == type && agrees(all[i].fn, op, type, size))
			return all[i].fn;
	return NULL;
}
