/*
 * wire.c - encoding of the piggyback header (wire.h).  The core holds in
 * 32 bytes what every message needs: times and lengths as 48-bit
 * nanoseconds (78 hours), the delay as 40 bits (18 minutes, saturated),
 * the site as 24 bits.  Byte order is the host's: all ranks of a job run
 * on one architecture (MPI's homogeneous case).
 */
#include <endian.h>
#include <string.h>

#include "wire.h"

#define BITS(n) ((1ull << (n)) - 1)

enum { F_CPFN = 1, F_CHECK = 2, F_CP = 4, F_SYNC = 8 };

/* The low bytes of v at p, least significant first.  Every message
 * encodes and decodes a header: memcpy of a constant length compiles to a
 * few moves, where a loop over the bytes took about 300 instructions a
 * header. */
static inline void put(unsigned char *p, uint64_t v, int bytes)
{
	v = htole64(v);
	memcpy(p, &v, (size_t)bytes);
}

/*
 * Reads load each field whole.  Copying 3 to 6 bytes into a zeroed word
 * compiles to small stores and one 8-byte load of them, which the CPU
 * cannot forward from the stores: a stall of a dozen cycles per field on
 * every received message.
 */
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

/* The core's field at offset off, bytes long: one 8-byte load that stays
 * inside the core, shifted into place. */
static inline uint64_t core_field(const unsigned char *core, int off, int bytes)
{
	int at = off + 8 <= WIRE_CORE ? off : WIRE_CORE - 8;
	uint64_t v = get64(core + at) >> (8 * (off - at));

	return bytes == 8 ? v : v & BITS(8 * bytes);
}

static uint64_t clamp(uint64_t v, int bits)
{
	return v > BITS(bits) ? BITS(bits) : v;
}

struct wire_layout wire_layout(int zero, int check)
{
	return (struct wire_layout){ .len = WIRE_CORE + (zero ? WIRE_ZERO : 0) + (check ? WIRE_CHECK : 0),
				     .zero = !!zero, .check = !!check };
}

void wire_encode(const struct wire_layout *l, const struct pmpi_pb *pb, unsigned char *out)
{
	unsigned char *z = out + WIRE_CORE, *k = z + (l->zero ? WIRE_ZERO : 0);
	int flags = (l->zero && (pb->flags & PMPI_PB_F_CPFN) ? F_CPFN : 0) | (l->check ? F_CHECK : 0) |
		    (pb->event && pb->cp >= 0 ? F_CP : 0) | (pb->flags & PMPI_PB_F_SYNC ? F_SYNC : 0);

	out[0] = WIRE_VERSION;
	out[1] = (unsigned char)flags;
	put(out + 2, (uint32_t)pb->rank, 4);
	put(out + 6, pb->site < 0 ? 0 : clamp((uint64_t)pb->site + 1, 24), 3);
	put(out + 9, pb->t_send & BITS(48), 6);
	put(out + 15, flags & F_CP ? clamp(pb->event, 48) : 0, 6);
	put(out + 21, flags & F_CP ? clamp((uint64_t)pb->cp, 48) : 0, 6);
	put(out + 27, pb->delay > 0 ? clamp((uint64_t)pb->delay, 40) : 0, 5);
	if (l->zero)
		for (int f = 0; f < PMPI_PB_SHARES; f++) {
			put(z + 24 * f, (uint64_t)pb->share[f], 8);
			put(z + 24 * f + 8, (uint64_t)pb->net[f], 8);
			put(z + 24 * f + 16, pb->fn[f], 8);
		}
	if (l->check) {
		put(k, (uint32_t)pb->tag, 4);
		put(k + 4, pb->bytes, 8);
		put(k + 12, (uint32_t)pb->source, 4);
	}
}

/*
 * The time whose low 48 bits are t48 nearest to now (within 2^47 ns, 39
 * hours), no later than now.  The sender's clock may be a little ahead of
 * ours (each process extrapolates its own), so a send time "after" now is
 * skew, taken as now: read as the latest time not after now it would be
 * 2^48 ns early, or, on a host up for less than that, wrap below zero.
 */
static uint64_t send_time(uint64_t t48, uint64_t now)
{
	uint64_t ahead = (t48 - now) & BITS(48);	/* t48 - now, mod 2^48 */

	if (ahead < (1ull << 47))
		return now;
	ahead = (1ull << 48) - ahead;		/* how far behind now */
	return now > ahead ? now - ahead : 0;
}

int wire_decode(const struct wire_layout *l, const unsigned char *in, uint64_t now,
		struct pmpi_pb *pb)
{
	const unsigned char *z = in + WIRE_CORE, *k = z + (l->zero ? WIRE_ZERO : 0);
	int flags = in[1];
	uint64_t t48 = core_field(in, 9, 6), site = core_field(in, 6, 3);

	/* the zeroing block only where the job has one: nothing reads it
	 * otherwise, and every received message decodes a header (sizes
	 * known to the compiler: a few stores, not a call) */
	pmpi_pb_core_clear(pb);
	if (l->zero)
		memset(pb->share, 0, sizeof(*pb) - PMPI_PB_CORE);
	if (in[0] != WIRE_VERSION || !(flags & F_CHECK) != !l->check)
		return 0;
	pb->version = PMPI_PB_VERSION;
	pb->flags = flags & F_SYNC ? PMPI_PB_F_SYNC : 0;
	pb->rank = (int32_t)get32(in + 2);
	pb->site = site ? (int32_t)site - 1 : -1;
	pb->t_send = send_time(t48, now);
	if (flags & F_CP) {
		pb->event = core_field(in, 15, 6);
		pb->cp = (int64_t)core_field(in, 21, 6);
	} else {
		pb->cp = -1;
	}
	pb->delay = (int64_t)core_field(in, 27, 5);
	pb->t_free = pb->t_send > (uint64_t)pb->delay ? pb->t_send - (uint64_t)pb->delay : 0;
	if (l->zero && (flags & F_CPFN)) {
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
