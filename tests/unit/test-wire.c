/*
 * test-wire.c - unit tests of the piggyback's header on messages
 * (pmpi/wire.c): the layouts' lengths, a round trip of every field, the
 * byte positions of the core (the format other ranks read), saturation of
 * fields past their width, the send time rebuilt across a wrap of its 48
 * bits, headers refused for their version or layout, and the core
 * written from the analyses' words alone (a small message's send) the
 * same as encoded from a struct pmpi_pb.
 */
#include <string.h>
#include "tap.h"
#include "../../pmpi/wire.h"

#define S 1000000000ull

static struct pmpi_pb sample(void)
{
	struct pmpi_pb pb = { .rank = 70000, .site = 12, .t_send = 5 * S + 123, .event = 4321,
			      .cp = 3 * S + 7, .delay = 250000, .tag = -5, .bytes = 1u << 20,
			      .source = 70001 };

	for (int f = 0; f < PMPI_PB_SHARES; f++) {
		pb.share[f] = 1000 * f + 1;
		pb.net[f] = 2000 * f + 2;
		pb.fn[f] = 0x1234567890abcdefull + (uint64_t)f;
	}
	pb.flags = PMPI_PB_F_CPFN;
	return pb;
}

static void test_layouts(void)
{
	struct wire_layout core;

	is_int(wire_layout(0, 0).len, 40, "the core alone is 40 bytes");
	is_int(wire_layout(1, 0).len, 40 + PMPI_PB_SHARES * 24, "zeroing adds a share, net and name per function");
	is_int(wire_layout(0, 1).len, 56, "check mode adds tag, size and source");
	is_int(wire_layout(1, 1).len, WIRE_MAX, "both: the largest header");
	core = wire_layout(0, 0);
	ok(!memcmp(&core, &WIRE_CORE_LAYOUT, sizeof(core)), "the constant core layout is wire_layout(0, 0)");
}

static void test_round_trip(void)
{
	struct wire_layout l = wire_layout(1, 1);
	struct pmpi_pb in = sample(), out;
	unsigned char b[WIRE_MAX];
	int same = 1;

	wire_encode(&l, &in, b);
	ok(wire_decode(&l, b, in.t_send + 5 * S, &out), "a header of this layout is read");
	is_int(out.rank, in.rank, "rank");
	is_int(out.site, in.site, "site");
	is_int(out.t_send, in.t_send, "send time");
	is_int(out.event, in.event, "critical-path event");
	is_int(out.cp, in.cp, "critical-path length");
	is_int(out.delay, in.delay, "delay");
	is_int(out.t_free, in.t_send - (uint64_t)in.delay, "free time is the send time less the delay");
	is_int(out.tag, in.tag, "check: tag");
	is_int(out.bytes, in.bytes, "check: size");
	is_int(out.source, in.source, "check: the sender's rank in the communicator");
	ok(out.flags & PMPI_PB_F_CPFN, "zeroing data flagged");
	for (int f = 0; f < PMPI_PB_SHARES; f++)
		same &= out.share[f] == in.share[f] && out.net[f] == in.net[f] && out.fn[f] == in.fn[f];
	ok(same, "zeroing shares, nets and names");
}

static void test_positions(void)
{
	struct wire_layout l = wire_layout(0, 0);
	struct pmpi_pb in = sample();
	unsigned char b[WIRE_MAX];

	memset(b, 0xee, sizeof(b));
	wire_encode(&l, &in, b);
	is_int(b[0], WIRE_VERSION, "byte 0: version");
	is_int(b[1], 4, "byte 1: flags (a critical path, no zeroing block, no check block)");
	is_int(b[2] | b[3] << 8, 13, "bytes 2-3: site + 1, little-endian");
	is_int(b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24, 70000, "bytes 4-7: rank");
	is_int(b[8], in.t_send & 0xff, "bytes 8-15: send time, from its low byte");
	is_int(b[40], 0xee, "nothing written past the core");
}

static void test_limits(void)
{
	struct wire_layout l = wire_layout(0, 0);
	struct pmpi_pb in = sample(), out;
	unsigned char b[WIRE_MAX];

	in.site = 1 << 25;
	in.delay = (int64_t)1 << 45;
	in.event = 0;		/* no critical path yet */
	wire_encode(&l, &in, b);
	wire_decode(&l, b, in.t_send, &out);
	is_int(out.site, (1 << 16) - 2, "a site past 16 bits saturates");
	is_int(out.delay, (int64_t)1 << 45, "a delay travels whole");
	is_int(out.cp, -1, "no event: no critical path");
	is_int(out.event, 0, "no event travels");
	in.site = -1;
	in.delay = -5;
	wire_encode(&l, &in, b);
	wire_decode(&l, b, in.t_send, &out);
	is_int(out.site, -1, "an unknown site stays unknown");
	is_int(out.delay, 0, "a negative delay travels as none");
	ok(!(out.flags & PMPI_PB_F_CPFN), "no zeroing block: no zeroing data");
}

static void test_skew(void)
{
	struct wire_layout l = wire_layout(0, 0);
	struct pmpi_pb in = sample(), out;
	unsigned char b[WIRE_MAX];

	in.t_send = (1ull << 50) + 7;	/* a host up for two weeks */
	wire_encode(&l, &in, b);
	wire_decode(&l, b, in.t_send, &out);
	is_int(out.t_send, in.t_send, "send time read at the same instant");
	wire_decode(&l, b, in.t_send + (1ull << 49), &out);
	is_int(out.t_send, in.t_send, "send time read days later");
	wire_decode(&l, b, in.t_send - 40, &out);
	is_int(out.t_send, in.t_send - 40, "a sender's clock ahead of the reader's is skew: the send time is now");
	in.t_send = 5000;		/* a host up for 5 us */
	wire_encode(&l, &in, b);
	wire_decode(&l, b, 4900, &out);
	is_int(out.t_send, 4900, "skew on a host up for 5 us");
	is_int(out.t_free, 0, "the time the data were free does not go below zero (delay 250 us)");
}

static void test_refused(void)
{
	struct wire_layout plain = wire_layout(0, 0), check = wire_layout(0, 1);
	struct pmpi_pb in = sample(), out;
	unsigned char b[WIRE_MAX];

	wire_encode(&plain, &in, b);
	ok(!wire_decode(&check, b, in.t_send, &out), "a header without the check block is refused in check mode");
	b[0] = WIRE_VERSION + 1;
	ok(!wire_decode(&plain, b, in.t_send, &out), "another version is refused");
}

/* A core written by wire_put_core against wire_encode of the same
 * fields, with flags and site as a sender gives them. */
static int core_as_encoded(struct pmpi_pb pb)
{
	struct wire_layout plain = wire_layout(0, 0);
	unsigned char a[WIRE_CORE], b[WIRE_CORE];

	wire_encode(&plain, &pb, a);
	wire_put_core(b, pb.flags & PMPI_PB_F_SYNC ? WIRE_F_SYNC : 0, pb.site, pb.rank,
		      &(struct pmpi_pb_core){ pb.t_send, pb.event, pb.cp, pb.delay });
	return !memcmp(a, b, sizeof(a));
}

static void test_core(void)
{
	struct pmpi_pb pb = sample();

	pb.flags = 0;
	ok(core_as_encoded(pb), "a core from the analyses' words is the encoded header");
	pb.flags = PMPI_PB_F_SYNC;
	pb.site = -1;
	ok(core_as_encoded(pb), "the same for a synchronous send of no site");
	pb.cp = -1;
	ok(core_as_encoded(pb), "and for a sender without a path");
	pb.site = 1 << 20;
	pb.delay = -3;
	ok(core_as_encoded(pb), "and for a site past the field and a negative delay");
}

int main(void)
{
	test_layouts();
	test_round_trip();
	test_positions();
	test_limits();
	test_skew();
	test_refused();
	test_core();
	return tap_done();
}
