#!/usr/bin/perl
# man.pl - a man page from its Markdown source in docs/man and the
# command's --help: `man.pl PAGE.1.md HELP.txt VERSION > PAGE.1`.  The
# source is the little Markdown the pages use (# sections, paragraphs,
# `code`, *emphasis*, **bold**, - lists); the line @OPTIONS@ becomes the
# options the command's help lists, an entry each, so that the page
# always has every option the command takes.
use strict;
use warnings;

my ($src, $help, $version) = @ARGV;
die "usage: man.pl PAGE.1.md HELP.txt VERSION\n" unless defined $version;
my ($name) = $src =~ m{([^/]+)\.1\.md$} or die "man.pl: $src is not NAME.1.md\n";

# roff text: backslashes, dashes and a leading dot or quote escaped
sub plain {
	my ($t) = @_;
	$t =~ s/\\/\\e/g;
	$t =~ s/-/\\-/g;
	$t =~ s/^([.'])/\\&$1/;
	return $t;
}

# roff text of a Markdown line: `code` and **bold** in bold, *emphasis*
# in italics (none inside code)
sub inline {
	my @parts = split /`/, $_[0], -1;
	my $t = '';

	for my $i (0 .. $#parts) {
		my $p = plain($parts[$i]);

		if ($i % 2) {
			$t .= "\\fB$p\\fR";
			next;
		}
		$p =~ s/\*\*(.+?)\*\*/\\fB$1\\fR/g;
		$p =~ s/\*(.+?)\*/\\fI$1\\fR/g;
		$t .= $p;
	}
	return $t;
}

sub options {
	open(my $h, '<', $help) or die "man.pl: $help: $!\n";
	my @lines = <$h>;
	my @opts = grep { /^\s+(-\w, )?--?\w/ } @lines;
	return ".nf\n" . join('', map { plain($_) } @lines) . ".fi\n" unless @opts;
	my $out = '';
	for (@opts) {
		chomp;
		my ($spec, $text) = /^\s+(\S.*?)(?:\s{2,}(.*))?$/;
		$text //= '';
		$spec = plain($spec);
		$spec =~ s/((?:\\-)+[\w\\-]+)/\\fB$1\\fR/g;
		$spec =~ s/=([A-Z][\w,.]*)/=\\fI$1\\fR/g;
		$out .= ".TP\n$spec\n" . plain($text) . "\n";
	}
	return $out;
}

open(my $s, '<', $src) or die "man.pl: $src: $!\n";
my $title = uc $name;
print ".\\\" Generated from docs/man/$name.1.md and `--help` by docs/man/man.pl.\n";
print ".TH \"$title\" 1 \"\" \"cpperf $version\" \"cpperf manual\"\n";
my ($para, $list) = (0, 0);
while (my $l = <$s>) {
	chomp $l;
	if ($l =~ /^# (.*)/) {
		print ".SH " . inline(uc $1) . "\n";
		($para, $list) = (0, 0);
	} elsif ($l eq '@OPTIONS@') {
		print options();
		($para, $list) = (0, 0);
	} elsif ($l =~ /^- (.*)/) {
		print ".IP \\(bu 2\n" . inline($1) . "\n";
		($para, $list) = (1, 1);
	} elsif ($l eq '') {
		$para = 0;
	} else {
		print $list && $para ? '' : (!$para ? ".PP\n" : '');
		print inline($l) . "\n";
		$para = 1;
	}
}
