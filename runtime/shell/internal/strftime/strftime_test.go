package strftime

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// conversions are every conversion Format supports, alone and with the
// flags and widths scripts use.
var conversions = []string{
	"%a", "%A", "%b", "%B", "%c", "%C", "%d", "%D", "%e", "%F", "%g", "%G", "%h", "%H",
	"%I", "%j", "%k", "%l", "%m", "%M", "%n", "%N", "%p", "%P", "%q", "%r", "%R", "%s",
	"%S", "%t", "%T", "%u", "%U", "%V", "%w", "%W", "%x", "%X", "%y", "%Y", "%z", "%:z",
	"%::z", "%:::z", "%Z", "%%",
	"%-d", "%-m", "%-H", "%-I", "%-j", "%-e", "%_d", "%_m", "%_H", "%0e", "%0k", "%^a", "%^B",
	"%^p", "%#p", "%#Z", "%#a", "%10Y", "%_10Y", "%-10Y", "%5d", "%3N", "%6N", "%Ey", "%Od",
	"%10a", "%010a", "%Q", "%", "a%", "plain text", "%Y-%m-%dT%H:%M:%S%z",
}

// times cover a leap day, the ISO week-year boundary, midnight and noon,
// single-digit fields and a time before 1970.
var times = []time.Time{
	time.Date(2023, 11, 14, 22, 13, 20, 123456789, time.UTC),
	time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
	time.Date(2021, 1, 3, 12, 5, 9, 0, time.UTC),  // ISO week 53 of 2020
	time.Date(2019, 12, 30, 7, 8, 9, 5, time.UTC), // ISO week 1 of 2020
	time.Date(1969, 7, 20, 20, 17, 40, 0, time.UTC),
	time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
}

// TestFormatMatchesGNUDate formats every conversion at every time and
// compares with what /usr/bin/date prints in the C locale, UTC.
func TestFormatMatchesGNUDate(t *testing.T) {
	if _, err := os.Stat("/usr/bin/date"); err != nil {
		t.Skip("no /usr/bin/date")
	}
	if out, err := exec.Command("/usr/bin/date", "--version").Output(); err != nil || !strings.Contains(string(out), "GNU") {
		t.Skip("/usr/bin/date is not GNU date")
	}
	for _, tm := range times {
		for _, f := range conversions {
			cmd := exec.Command("/usr/bin/date", "-u", "-d", "@"+strconv.FormatInt(tm.Unix(), 10)+"."+strconv.Itoa(1_000_000_000 + tm.Nanosecond())[1:], "+"+f)
			cmd.Env = []string{"LC_ALL=C", "TZ=UTC"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("date %q: %v", f, err)
			}
			want := strings.TrimSuffix(string(out), "\n")
			if got := Format(f, tm); got != want {
				t.Errorf("Format(%q, %s) = %q, GNU date prints %q", f, tm.Format(time.RFC3339Nano), got, want)
			}
		}
	}
}

// TestFormatMatchesGawk compares with gawk's strftime(format, t) under TZ=UTC
// for the conversions whose meaning C's strftime shares with GNU date
// (%N, %q and %:z are date's own; gawk prints them as written or not at all).
func TestFormatMatchesGawk(t *testing.T) {
	gawk, err := exec.LookPath("gawk")
	if err != nil {
		t.Skip("no gawk")
	}
	skip := map[string]bool{"%N": true, "%3N": true, "%6N": true, "%q": true, "%:z": true, "%::z": true,
		"%:::z": true, "%P": true, "%": true, "a%": true, "%Q": true, "%10a": true, "%010a": true,
		"%#Z": true, "%#p": true, "%#a": true, "%-10Y": true, "%_10Y": true, "%10Y": true, "%5d": true,
		"%0e": true, "%0k": true}
	for _, tm := range times {
		for _, f := range conversions {
			if skip[f] {
				continue
			}
			cmd := exec.Command(gawk, "-v", "f="+f, "-v", "t="+strconv.FormatInt(tm.Unix(), 10), "BEGIN { printf \"%s\", strftime(f, t) }")
			cmd.Env = []string{"LC_ALL=C", "TZ=UTC"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("gawk %q: %v", f, err)
			}
			if got := Format(f, tm.Truncate(time.Second)); got != string(out) {
				t.Errorf("Format(%q, %s) = %q, gawk prints %q", f, tm.Format(time.RFC3339), got, out)
			}
		}
	}
}

// TestFormatTable pins the results without any outside program, so a
// machine without GNU date still checks them.
func TestFormatTable(t *testing.T) {
	tm := time.Date(2024, 2, 9, 7, 5, 3, 42_000_000, time.FixedZone("XST", -(5*3600+30*60)))
	for f, want := range map[string]string{
		"%Y-%m-%d %H:%M:%S": "2024-02-09 07:05:03",
		"%-d/%-m %e|%k|%l":  "9/2  9| 7| 7",
		"%z %:z %::z %:::z": "-0530 -05:30 -05:30:00 -05:30",
		"%^a %#Z %p %P":     "FRI xst AM am",
		"%3N %N":            "042 042000000",
		"%j %U %W %V %G %u": "040 05 06 06 2024 5",
		"%10Y|%_5d|%-5d":    "0000002024|    9|9",
		"%Q %":              "%Q %",
	} {
		if got := Format(f, tm); got != want {
			t.Errorf("Format(%q) = %q, want %q", f, got, want)
		}
	}
}
