#!/usr/bin/perl
# gen-wrappers.pl - writes every MPI wrapper from pmpi/mpi-api.def.
#
#   perl pmpi/gen-wrappers.pl pmpi/mpi-api.def OUT.c
#
# OUT.c holds, per function of the table, the C wrapper MPI_Xxx (calling
# PMPI_Xxx) and the Fortran entry points mpi_xxx_, mpi_xxx__, mpi_xxx
# and MPI_XXX (one function and its aliases,
# calling the MPI library's own Fortran binding pmpi_xxx_, so that
# MPI_IN_PLACE, MPI_BOTTOM, status and LOGICAL conventions stay the
# library's) and mpi_xxx_f08_ (`use mpi_f08`): for Open MPI, calling
# pmpi_xxx_f08_; for MPICH, whose module calls the C functions with a choice
# buffer by their MPI_ names (so the C wrappers see those) and every other
# one by its PMPI_ name, only the latter, calling the library's mpi_xxx_f08_
# found past ours.  Wrappers only gather the call's facts; the logic is in
# the hand-written pmpi/*.c files behind pmpi/pmpi.h.  Plain perl 5: no
# modules.
use strict;
use warnings;

die "usage: $0 mpi-api.def OUT.c\n" unless @ARGV == 2;
my ($def, $out) = @ARGV;

my %known_flag = map { $_ => 1 } qw(send recv irecv precv psend start complete
	coll fromroot toroot prefix nbr rma block testblock init fini abort hot quick);
my %known_role = map { $_ => 1 } qw(sbuf rbuf scount rcount scounts rcounts stype rtype
	rcounts.self stypes rtypes dest src tag comm root status req reqin reqs nreq statuses index flag
	outcount indices comm.free comm.new code nof addr str);

# --- parse the table
my @fns;
open(my $in, '<', $def) or die "$def: $!\n";
while (my $line = <$in>) {
	chomp $line;
	next if $line =~ /^\s*(#|$)/;
	my ($name, $flags, $params, $x) = $line =~ /^(\w+)\s+(\S+)\s+(.*?)\s*(?:=>\s*(.*?)\s*)?$/
		or die "$def:$.: expected NAME FLAGS PARAMS [=> CALL]\n";
	my %f = map { $_ => 1 } grep { $_ ne '-' } split /,/, $flags;
	$known_flag{$_} or die "$def:$.: unknown flag '$_'\n" for keys %f;
	my @p;
	if ($params ne 'void') {
		for my $decl (split /\s*,\s*/, $params) {
			my ($ctype, $roles) = split /:/, $decl, 2;
			my ($type, $pname, $arr) = $ctype =~ /^(.*?[\s*])(\w+)(\[\])?$/
				or die "$def:$.: cannot read parameter '$decl'\n";
			$type =~ s/\s+$//;
			my %r;
			for my $role (split /\+/, $roles // '') {
				my ($base, $mul, $sig) = $role =~ /^([\w.]+?)(?:\*(n|nin|nout))?(?:\@(root|leaf|nonroot))?$/
					or die "$def:$.: cannot read role '$role'\n";
				$known_role{$base} or die "$def:$.: unknown role '$base'\n";
				$r{$base} = { mul => $mul, sig => $sig };
			}
			push @p, { type => $type, name => $pname, arr => defined $arr, decl => $ctype, roles => \%r };
		}
	}
	push @fns, { name => $name, flags => \%f, params => \@p, line => $., x => $x };
}
close $in;

# What a wrapper is written for: C, Fortran's mpif.h and `use mpi`, or
# `use mpi_f08` (the same arguments, ierror optional).
use constant { C => 0, FORTRAN => 1, F08 => 2 };

# A wrapper's caller's return address, and its call's way
# (call.h: pmpi_way): the quick wrappers' body functions take both as arguments.
our ($ra, $quick) = ('__builtin_return_address(0)', 'PMPI_SLOW');

# --- helpers over one function's parameters
sub with_role {
	my ($fn, $role) = @_;
	for my $p (@{ $fn->{params} }) {
		return $p if exists $p->{roles}{$role};
	}
	return undef;
}

# The value a role's parameter stands for, in the C or the Fortran wrapper.
sub val {
	my ($p, $role, $fortran) = @_;
	my $n = $p->{name};
	return $n unless $fortran;
	return "pmpi_f_buf($n)" if $role =~ /buf$/;
	return "(const int *)$n" if $p->{arr};
	return "PMPI_Type_f2c(*$n)" if $p->{type} eq 'MPI_Datatype';
	return "PMPI_Comm_f2c(*$n)" if $p->{type} =~ /^MPI_Comm/;
	return "(*$n)";
}

# The sentinel the binding passes for MPI_STATUS_IGNORE (MPI_STATUSES_IGNORE
# when $many): mpi_f08's differs from mpif.h's under MPICH (fortran.h).
sub status_ignore {
	my ($fortran, $many) = @_;
	my $s = $many ? 'STATUSES' : 'STATUS';
	return $fortran == F08 ? "PMPI_F08_${s}_IGNORE" : "MPI_F_${s}_IGNORE";
}

sub deref {	# C value of a pointer-to-handle parameter (request, comm)
	my ($p, $fortran, $conv) = @_;
	return $fortran ? "$conv(*$p->{name})" : "*$p->{name}";
}

# The piggyback hooks (piggyback.h): statements before the PMPI call, after
# it when it succeeded, and after it in any case.
sub pb_body {
	my ($fn, $fortran, $pre, $post, $always) = @_;
	my %f = %{ $fn->{flags} };
	my $r = sub { my $p = with_role($fn, $_[0]); $p ? val($p, $_[0], $fortran) : 'NULL' };
	my $comm = $r->('comm');
	if (my $c = with_role($fn, 'comm.free')) {
		push @$pre, "pmpi_pb_comm_free(" . deref($c, $fortran, 'PMPI_Comm_f2c') . ");";
	}
	push @$pre, 'pmpi_finalize_enter();' if $f{fini};
	if ($f{coll}) {
		my $dir = (grep { $f{$_} } qw(fromroot toroot prefix nbr))[0] // 'all';
		my $req = with_role($fn, 'req');
		my $root = with_role($fn, 'root');
		# the collective code takes a quick collective as blocking (piggyback.h)
		die "$def:$fn->{line}: a quick collective is blocking\n" if $f{quick} && $req;
		# the communicator's facts, looked up once for every step below
		push @$pre, "const struct pmpi_comm_facts cf_ = pmpi_comm_facts($comm);";
		push @$pre, "struct pmpi_pb_coll pbl_, *pb_ = pmpi_pb_coll_begin(&c_, &pbl_, " .
			($req ? 1 : 0) . ", &cf_, " . ($root ? val($root, 'root', $fortran) : '0') .
			", PMPI_PB_" . uc($dir) . ", $quick);";
		my $rv = !$req ? 'NULL' : $fortran ? "&(MPI_Request){ PMPI_Request_f2c(*$req->{name}) }" : $req->{name};
		push @$always, "pmpi_pb_coll_end(&c_, pb_, " . ($fortran ? '*ierr' : 'rc_') . ", $rv, PMPI_PB_" .
			uc($dir) . ", $quick);";
	}
	return $comm;
}

# Bytes of one side ('s' or 'r') of a collective or one-sided call: a C
# expression that reads counts and types only where they are significant
# (a collective's communicator in its facts, cf_).
sub side_bytes {
	my ($fn, $s, $fortran) = @_;
	my ($type, $types) = (with_role($fn, "${s}type"), with_role($fn, "${s}types"));
	return '0' unless $type || $types;
	my ($cnt, $role);
	for my $r ("${s}count", "${s}counts", "${s}counts.self") {
		$cnt = with_role($fn, $r) and ($role = $r, last);
	}
	my $tv = $type ? val($type, "${s}type", $fortran) : undef;
	my ($expr, $mul, $sig) = ('', undef, undef);
	if (!$cnt) {
		$expr = "pmpi_bytes(1, $tv)";
	} else {
		($mul, $sig) = @{ $cnt->{roles}{$role} }{qw(mul sig)};
		my $c = val($cnt, $role, $fortran);
		my $np = $mul ? "pmpi_npeers(&cf_, PMPI_PEERS_" . uc($mul) . ')' : undef;
		if ($role eq "${s}counts.self") {
			$expr = "pmpi_bytes(($c)\[cf_.rank], $tv)";
		} elsif ($role eq "${s}counts") {
			die "$def:$fn->{line}: $role needs a multiplier\n" unless $np;
			$expr = !$types ? "pmpi_bytes_v($c, $tv, $np)" :
				$fortran ? "pmpi_f_bytes_w($c, $types->{name}, $np)" :
				"pmpi_bytes_w($c, $types->{name}, $np)";
		} else {
			$expr = "pmpi_bytes($c, $tv)";
			$expr .= " * $np" if $np;
		}
	}
	my @guard;
	my $buf = with_role($fn, "${s}buf");
	push @guard, val($buf, "${s}buf", $fortran) . ' != MPI_IN_PLACE' if $buf;
	if ($sig) {
		my $root = with_role($fn, 'root') or die "$def:$fn->{line}: \@$sig without a root\n";
		push @guard, "pmpi_is_$sig(&cf_, " . val($root, 'root', $fortran) . ')';
	}
	return @guard ? '(' . join(' && ', @guard) . " ? $expr : 0)" : $expr;
}

# Statements before the PMPI call, after it (when it succeeded) and after
# it in any case; then those of the transport (before and after), which a
# call not profiled runs too, with no call (C stands for it).
sub body {
	my ($fn, $fortran) = @_;
	my %f = %{ $fn->{flags} };
	my (@pre, @post, @always, @xpre, @xalways);
	my $rc = $fortran ? '*ierr' : 'rc_';
	my $r = sub { my $p = with_role($fn, $_[0]); $p ? val($p, $_[0], $fortran) : 'NULL' };
	if ($f{recv}) {
		my $st = with_role($fn, 'status')->{name};
		if ($fortran) {
			push @pre, "MPI_Fint st_f_[PMPI_F_STATUS_SIZE];",
				"if ($st == " . status_ignore($fortran, 0) . ")", "\t$st = st_f_;";
		} else {
			push @pre, "MPI_Status st_;", "if ($st == MPI_STATUS_IGNORE)", "\t$st = &st_;";
		}
		my $stv = $fortran ? "pmpi_f_status($st, &st_c_)" : $st;
		push @pre, "MPI_Status st_c_;" if $fortran;
		push @post, "const MPI_Status *stc_ = $stv;", "pmpi_received(&c_, stc_, $quick);";
	}
	pb_body($fn, $fortran, \@pre, \@post, \@always);
	if ($f{send}) {
		push @post, "pmpi_sent(&c_, " . join(', ', map { $r->($_) } qw(scount stype dest comm)) . ");";
	}
	if ($f{start}) {
		my ($reqs, $n) = (with_role($fn, 'reqs') // with_role($fn, 'reqin'), with_role($fn, 'nreq'));
		my $nv = $n ? val($n, 'nreq', $fortran) : '1';
		push @xpre, ($fortran ? 'pmpi_f_req_start' : 'pmpi_req_start') . "(C, $nv, $reqs->{name});";
	}
	if (my $c = with_role($fn, 'comm.free')) {
		push @pre, "pmpi_comm_forget(" . deref($c, $fortran, 'PMPI_Comm_f2c') . ");";
	}
	if (my $c = with_role($fn, 'comm.new')) {	# before the program may use it
		push @xalways, "if ($rc == MPI_SUCCESS)",
			"\tpmpi_pb_comm_born(" . deref($c, $fortran, 'PMPI_Comm_f2c') . ");";
	}
	if ($f{complete}) {
		my ($reqs, $n) = (with_role($fn, 'reqs') // with_role($fn, 'reqin'), with_role($fn, 'nreq'));
		my $st = with_role($fn, 'statuses');
		my $many = $st->{arr} ? 1 : 0;
		my $nv = $n ? val($n, 'nreq', $fortran) : '1';
		my $pfx = $fortran ? 'pmpi_f_' : 'pmpi_';
		my $ip = sub { my $p = with_role($fn, $_[0]); $p ? $p->{name} : 'NULL' };
		push @xpre, "struct pmpi_snap s_;",
			"${pfx}reqs_before(&s_, $nv, $reqs->{name}, &$st->{name}, $many" .
			($fortran ? ', ' . status_ignore($fortran, $many) : '') . ");";
		push @xalways, "${pfx}reqs_after(C, &s_, $rc, $st->{name}, " .
			join(', ', (map { $ip->($_) } qw(index flag outcount indices)),
			     $fortran ? ($fortran == F08 ? 'PMPI_F08_INDEX_BASE' : '1') : ()) . ");";
	}
	if ($f{coll} || $f{rma}) {
		my $what = $f{coll} ? 'pmpi_coll(&c_, &cf_, ' : 'pmpi_rma(&c_, ';
		push @post, $what . side_bytes($fn, 's', $fortran) . ', ' . side_bytes($fn, 'r', $fortran) . ');';
	}
	push @post, 'pmpi_init_done(&c_);' if $f{init};
	push @pre, 'pmpi_leave(&c_, false);', 'pmpi_abort(' . $r->('code') . ');' if $f{abort};	# the call does not return
	return (\@pre, \@post, \@always, \@xpre, \@xalways);
}

sub cflags {
	my ($f) = @_;
	my @c = map { "PMPI_CALL_" . uc } grep { $f->{$_} } qw(block testblock init);
	return @c ? join(' | ', @c) : '0';
}

# The call's statements with C standing for the call ($cv), P for its
# collective's piggyback (none when the call is not profiled) and Q for
# its way (call.h; $quick, PMPI_SLOW unless given).
sub with_call {
	my ($cv, @stmts) = @_;
	my $pv = $cv eq 'NULL' ? 'NULL' : 'pb_';
	return map { (my $t = $_) =~ s/\bC\b/$cv/g; $t =~ s/\bP\b/$pv/g; $t =~ s/\bQ\b/$quick/g; $t } @stmts;
}

# Fortran side of a transport call: declarations and conversions of the
# arguments, the C call's arguments, conversions back after it.  An
# address the call returns goes back to mpi_f08's TYPE(C_PTR) only.
sub fortran_xport {
	my ($fn, $f08) = @_;
	my (@decl, @out, %arg);
	my %f = %{ $fn->{flags} };
	for my $p (@{ $fn->{params} }) {
		my ($n, $t, $r) = ($p->{name}, $p->{type}, $p->{roles});
		if (exists $r->{addr}) {
			push @decl, "void *a_$n = NULL;";
			push @decl, "(void)$n;	/* Fortran has no use for the address */" unless $f08;
			push @out, "*(void **)$n = a_$n;" if $f08;
			$arg{$n} = "&a_$n";
		} elsif ($t =~ /void/) {
			$arg{$n} = "(void *)pmpi_f_buf($n)";
		} elsif ($t eq 'MPI_Datatype') {
			$arg{$n} = "PMPI_Type_f2c(*$n)";
		} elsif ($t eq 'MPI_Comm') {
			$arg{$n} = "PMPI_Comm_f2c(*$n)";
		} elsif ($t eq 'MPI_Op') {
			$arg{$n} = "PMPI_Op_f2c(*$n)";
		} elsif ($t eq 'MPI_Request') {
			$arg{$n} = "PMPI_Request_f2c(*$n)";
		} elsif ($p->{arr} && $t =~ /\bint$/) {
			$arg{$n} = "(const int *)$n";
		} elsif ($t eq 'int') {
			$arg{$n} = "(int)*$n";
		} elsif ($t eq 'int *') {
			push @decl, "int v_$n = 0;";
			push @out, "*$n = v_$n;";
			$arg{$n} = "&v_$n";
		} elsif ($t eq 'MPI_Request *') {
			push @decl, "MPI_Request r_$n = " . (exists $r->{reqin} ? "PMPI_Request_f2c(*$n)" : 'MPI_REQUEST_NULL') . ";";
			push @out, "*$n = PMPI_Request_c2f(r_$n);";
			$arg{$n} = "&r_$n";
		} elsif ($t eq 'MPI_Message *') {
			push @decl, "MPI_Message m_$n = " . ($f{recv} || $f{irecv} ? "PMPI_Message_f2c(*$n)" : 'MPI_MESSAGE_NULL') . ";";
			push @out, "*$n = PMPI_Message_c2f(m_$n);";
			$arg{$n} = "&m_$n";
		} elsif ($t eq 'MPI_Status *') {
			my $ign = status_ignore($f08 ? F08 : FORTRAN, 0);
			push @decl, "MPI_Status s_$n;";
			push @out, "if (*ierr == MPI_SUCCESS && $n != $ign)", "\tPMPI_Status_c2f(&s_$n, $n);";
			$arg{$n} = "($n == $ign ? MPI_STATUS_IGNORE : &s_$n)";
		} else {
			die "$def:$fn->{line}: no Fortran conversion for '$t $n'\n";
		}
	}
	(my $call = $fn->{x}) =~ s/\b(\w+)\b/exists $arg{$1} ? $arg{$1} : $1/ge;
	return (\@decl, "*ierr = $call", \@out);
}

sub emit_body {
	my ($o, $fn, $idx, $call, $fortran) = @_;
	my ($pre, $post, $always, $xpre, $xalways) = body($fn, $fortran);
	my $rc = $fortran ? '*ierr' : 'rc_';
	my ($decl, $out) = ([], []);
	if ($fn->{x}) {
		if ($fortran) {
			($decl, $call, $out) = fortran_xport($fn, $fortran == F08);
		} else {
			$call = "rc_ = $fn->{x}";
		}
	} elsif (!$fortran) {
		$call = "rc_ = $call";
	}
	print $o "\tstruct pmpi_call c_;\n";
	print $o "\tint rc_;\n" unless $fortran;
	print $o "\t$_\n" for @$decl;
	print $o "\n\tif (!pmpi_enter(&c_, $idx, " . cflags($fn->{flags}) . ", $ra, $quick)) {\n";
	print $o "\t\t$_\n" for with_call('NULL', @$xpre, "$call;", @$out, @$xalways);
	print $o $fortran ? "\t\treturn;\n" : "\t\treturn rc_;\n";
	print $o "\t}\n\t{\n";
	print $o "\t\t$_\n" for @$pre, with_call('&c_', @$xpre, "$call;"), @$out;
	if (@$post) {
		print $o "\t\tif ($rc == MPI_SUCCESS) {\n";
		print $o "\t\t\t$_\n" for @$post;
		print $o "\t\t}\n";
	}
	print $o "\t\t$_\n" for @$always, with_call('&c_', @$xalways);
	print $o "\t}\n";
	print $o "\tpmpi_leave(&c_, $quick);\n" unless $fn->{flags}{abort};
	print $o "\treturn rc_;\n" unless $fortran;
}

# Fortran parameter: everything by reference; choice buffers stay void *,
# character arguments char * (their lengths follow all the parameters).
sub fparam {
	my ($p) = @_;
	return "void *$p->{name}" if $p->{type} =~ /void/;
	return "char *$p->{name}" if exists $p->{roles}{str};
	return "MPI_Aint *$p->{name}" if $p->{type} =~ /MPI_Aint/;
	return "MPI_Fint *$p->{name}";
}

# --- write
open(my $o, '>', "$out.tmp") or die "$out.tmp: $!\n";
print $o "/* Generated by pmpi/gen-wrappers.pl from pmpi/mpi-api.def: do not edit. */\n";
print $o "#include \"pmpi.h\"\n#include \"piggyback.h\"\n#include \"p2p.h\"\n\n";
print $o "const unsigned pmpi_fn_count = " . scalar(@fns) . ";\n";
print $o "const char *const pmpi_fn_names[] = {\n";
print $o "\t\"MPI_$_->{name}\",\n" for @fns;
print $o "};\n";
my $i = 0;
for my $fn (@fns) {
	my @p = @{ $fn->{params} };
	my $cparams = @p ? join(', ', map { $_->{decl} } @p) : 'void';
	my $args = join(', ', map { $_->{name} } @p);
	my $hot = $fn->{flags}{hot} || $fn->{flags}{quick} ? "__attribute__((flatten)) " : "";
	if ($fn->{flags}{quick}) {	# a copy for each way (call.h)
		print $o "\nstatic inline __attribute__((always_inline)) int " .
			"body_$fn->{name}(const void *ra_, enum pmpi_way quick_, $cparams)\n{\n";
		{
			local ($ra, $quick) = ('ra_', 'quick_');
			emit_body($o, $fn, $i, "PMPI_$fn->{name}($args)", C);
		}
		print $o "}\n";
		# each copy out of line, with the wrapper's own parameters and
		# the caller's address handed over in pmpi_here.caller (here.h), so that the
		# wrapper jumps to it without a frame of its own: with the
		# common copy inline, the wrapper saved its registers before
		# asking the way, which cost the other ways 30 instructions a
		# call (35 where the address was one more argument); with the
		# other copy inline too, its registers spilled the common
		# one's (20 a ping-pong round trip)
		# (named "MPI_Xxx.way", which the report shows as MPI_Xxx)
		for my $way (['quick', 'PMPI_QUICK'], ['locked', 'PMPI_QUICK_LOCKED'],
			     ['other', 'PMPI_SLOW']) {
			print $o "\nstatic __attribute__((noinline, flatten)) int " .
				"$way->[0]_$fn->{name}($cparams) __asm__(\"MPI_$fn->{name}.$way->[0]\");\n";
			print $o "static int $way->[0]_$fn->{name}($cparams)\n{\n";
			print $o "\treturn body_$fn->{name}(pmpi_here.caller, $way->[1], $args);\n}\n";
		}
		print $o "\nCPPERF_EXPORT int MPI_$fn->{name}($cparams)\n{\n";
		print $o "\tenum pmpi_way w_ = pmpi_way();\n\n";
		print $o "\tpmpi_here.caller = __builtin_return_address(0);\n";
		print $o "\tif (__builtin_expect(w_ == PMPI_QUICK, 1))\n";
		print $o "\t\treturn quick_$fn->{name}($args);\n";
		print $o "\tif (w_ == PMPI_QUICK_LOCKED)\n";
		print $o "\t\treturn locked_$fn->{name}($args);\n";
		print $o "\treturn other_$fn->{name}($args);\n";
		print $o "}\n";
	} else {
		print $o "\n${hot}CPPERF_EXPORT int MPI_$fn->{name}($cparams)\n{\n";
		emit_body($o, $fn, $i, "PMPI_$fn->{name}($args)", C);
		print $o "}\n";
	}
	my @fp = grep { !exists $_->{roles}{nof} } @p;
	# a CHARACTER argument's length comes after the others, as
	# gfortran passes it
	my @lens = map { "$_->{name}_len_" } grep { exists $_->{roles}{str} } @fp;
	my $fparams = join(', ', (map { fparam($_) } @fp), 'MPI_Fint *ierr', map { "size_t $_" } @lens);
	my $fargs = join(', ', (map { $_->{name} } @fp), 'ierr', @lens);
	my $lc = lc "mpi_$fn->{name}";
	print $o "\nextern void p${lc}_($fparams) __attribute__((weak));\n" unless $fn->{x};
	print $o "CPPERF_EXPORT void ${lc}_($fparams)\n{\n";
	emit_body($o, $fn, $i, "p${lc}_($fargs)", FORTRAN);
	print $o "}\n";
	for my $alias ("${lc}__", $lc, uc $lc) {
		print $o "CPPERF_EXPORT void $alias($fparams) __attribute__((alias(\"${lc}_\")));\n";
	}
	(my $f08params = $fparams) =~ s/\*ierr\b/*ierror/;
	my $choice = grep { $_->{type} =~ /void/ && !exists $_->{roles}{addr} } @fp;
	print $o "\n#if defined(OPEN_MPI)" . ($choice ? '' : ' || defined(MPICH)') . "\n";
	unless ($fn->{x}) {
		print $o "#ifdef OPEN_MPI\n";
		print $o "extern void p${lc}_f08_($fparams) __attribute__((weak));\n";
		print $o "#else\n";
		print $o "PMPI_F08_NEXT(${lc}_f08_, ($fparams), ($fargs))\n";
		print $o "#endif\n";
	}
	print $o "CPPERF_EXPORT void ${lc}_f08_($f08params)\n{\n";
	print $o "\tMPI_Fint ierr_absent_ = MPI_SUCCESS, *ierr = ierror ? ierror : &ierr_absent_;\n";
	emit_body($o, $fn, $i, "p${lc}_f08_($fargs)", F08);
	print $o "}\n#endif\n";
	$i++;
}
close $o or die "$out.tmp: $!\n";
rename("$out.tmp", $out) or die "$out: $!\n";
