/*
 * wire.c - encoding of the piggyback header (wire.h).  The core is five
 * whole words, so that every message writes and reads it with 8-byte
 * moves: the version, flags, site and rank in the first, then the send
 * time, the critical path's event and length, and the delay, each in
 * nanoseconds or counts as the rank holds them.  Byte order is the
 * host's: all ranks of a job run on one architecture (MPI's homogeneous
 * case).
 */
#include "wire.h"

static inline void put32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static inline uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static inline uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

struct wire_layout wire_layout(int zero, int check)
{
	return (struct wire_layout){ .len = WIRE_CORE + (zero ? WIRE_ZERO : 0) + (check ? WIRE_CHECK : 0),
				     .zero = !!zero, .check = !!check,
				     .head = WIRE_VERSION | (check ? WIRE_F_CHECK << 8 : 0) };
}

void wire_encode(const struct wire_layout *l, const struct pmpi_pb *pb, unsigned char *out)
{
	unsigned char *z = out + WIRE_CORE, *k = z + (l->zero ? WIRE_ZERO : 0);
	int flags = (l->zero && (pb->flags & PMPI_PB_F_CPFN) ? WIRE_F_CPFN : 0) |
		    (l->check ? WIRE_F_CHECK : 0) | (pb->flags & PMPI_PB_F_SYNC ? WIRE_F_SYNC : 0);

	wire_put_core(out, flags, pb->site, pb->rank,
		      &(struct pmpi_pb_core){ pb->t_send, pb->event, pb->cp, pb->delay });
	if (l->zero)
		for (int f = 0; f < PMPI_PB_SHARES; f++) {
			wire_put64(z + 24 * f, (uint64_t)pb->share[f]);
			wire_put64(z + 24 * f + 8, (uint64_t)pb->net[f]);
			wire_put64(z + 24 * f + 16, pb->fn[f]);
		}
	if (l->check) {
		put32(k, (uint32_t)pb->tag);
		wire_put64(k + 4, pb->bytes);
		put32(k + 12, (uint32_t)pb->source);
	}
}

int wire_decode(const struct wire_layout *l, const unsigned char *in, uint64_t now,
		struct pmpi_pb *pb)
{
	const unsigned char *z = in + WIRE_CORE, *k = z + (l->zero ? WIRE_ZERO : 0);
	uint64_t w0 = get64(in), t_send = get64(in + 8), site = w0 >> 16 & 0xffff;
	int flags = (int)(w0 >> 8 & 0xff);

	/* the version and whether the check block is there, in one test;
	 * pb is left as it was when they are not this layout's (its
	 * fields cleared below are then stored once) */
	if ((w0 & (0xff | WIRE_F_CHECK << 8)) != l->head)
		return 0;
	/* the zeroing block only where the job has one: nothing reads it
	 * otherwise, and every received message decodes a header (sizes
	 * known to the compiler: a few stores, not a call) */
	pmpi_pb_core_clear(pb);
	if (l->zero)
		memset(pb->share, 0, sizeof(*pb) - PMPI_PB_CORE);
	pb->version = PMPI_PB_VERSION;
	pb->flags = flags & WIRE_F_SYNC ? PMPI_PB_F_SYNC : 0;
	pb->rank = (int32_t)(w0 >> 32);
	pb->site = site ? (int32_t)site - 1 : -1;
	/* a sender's clock a little ahead of ours (each process extrapolates
	 * its own) is skew: the data left now at the latest */
	pb->t_send = t_send < now ? t_send : now;
	pb->event = get64(in + 16);
	pb->cp = flags & WIRE_F_CP ? (int64_t)get64(in + 24) : -1;
	pb->delay = (int64_t)get64(in + 32);
	pb->t_free = pb->t_send > (uint64_t)pb->delay ? pb->t_send - (uint64_t)pb->delay : 0;
	if (l->zero && (flags & WIRE_F_CPFN)) {
		pb->flags |= PMPI_PB_F_CPFN;
		for (int f = 0; f < PMPI_PB_SHARES; f++) {
			pb->share[f] = (int64_t)get64(z + 24 * f);
			pb->net[f] = (int64_t)get64(z + 24 * f + 8);
			pb->fn[f] = get64(z + 24 * f + 16);
		}
	}
	if (l->check) {
		pb->tag = (int32_t)get32(k);
		pb->bytes = get64(k + 4);
		pb->source = (int32_t)get32(k + 12);
	}
	return 1;
}
