// Package qt is the small subset of github.com/go-quicktest/qt that the
// forked mvdan.cc/sh tests use, so that they run without adding that module
// (and go-cmp) to nook's dependencies. Written for the fork; see
// internal/mvsh/PATCHES.md.
package qt

import (
	"fmt"
	"reflect"
	"regexp"
	"testing"
)

// Checker is one assertion: check returns nil when it holds.
type Checker interface {
	check() error
}

// Comment is extra text printed when an assertion fails.
type Comment struct{ text string }

// Commentf builds a Comment from a format and its arguments.
func Commentf(format string, args ...any) Comment {
	return Comment{fmt.Sprintf(format, args...)}
}

func report(tb testing.TB, err error, comments []Comment) string {
	msg := err.Error()
	for _, c := range comments {
		msg += "\ncomment: " + c.text
	}
	return msg
}

// Assert fails and stops the test when c does not hold.
func Assert(tb testing.TB, c Checker, comments ...Comment) {
	tb.Helper()
	if err := c.check(); err != nil {
		tb.Fatal(report(tb, err, comments))
	}
}

// Check fails the test (without stopping it) when c does not hold, and
// reports whether it held.
func Check(tb testing.TB, c Checker, comments ...Comment) bool {
	tb.Helper()
	if err := c.check(); err != nil {
		tb.Error(report(tb, err, comments))
		return false
	}
	return true
}

type checkFunc func() error

func (f checkFunc) check() error { return f() }

// Equals holds when got == want.
func Equals[T comparable](got, want T) Checker {
	return checkFunc(func() error {
		if got != want {
			return fmt.Errorf("values are not equal\ngot:  %#v\nwant: %#v", got, want)
		}
		return nil
	})
}

// DeepEquals holds when reflect.DeepEqual(got, want).
func DeepEquals[T any](got, want T) Checker {
	return checkFunc(func() error {
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("values are not deep equal\ngot:  %#v\nwant: %#v", got, want)
		}
		return nil
	})
}

// CmpEquals holds when got and want are deeply equal, ignoring every value
// of a type named Pos (the positions of syntax nodes), which is what the
// upstream tests asked of go-cmp. opts are ignored.
func CmpEquals[T any](got, want T, opts ...any) Checker {
	return checkFunc(func() error {
		if !equalNoPos(reflect.ValueOf(got), reflect.ValueOf(want), map[[2]uintptr]bool{}) {
			return fmt.Errorf("values are not equal (ignoring positions)\ngot:  %#v\nwant: %#v", got, want)
		}
		return nil
	})
}

func equalNoPos(a, b reflect.Value, seen map[[2]uintptr]bool) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	if a.Type().Name() == "Pos" {
		return true
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if seen[k] {
			return true
		}
		seen[k] = true
		return equalNoPos(a.Elem(), b.Elem(), seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equalNoPos(a.Elem(), b.Elem(), seen)
	case reflect.Struct:
		for i := range a.NumField() {
			if !equalNoPos(a.Field(i), b.Field(i), seen) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && (a.IsNil() != b.IsNil()) && (a.Len() != 0 || b.Len() != 0) {
			return false
		}
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equalNoPos(a.Index(i), b.Index(i), seen) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if !equalNoPos(a.MapIndex(k), b.MapIndex(k), seen) {
				return false
			}
		}
		return true
	default:
		if a.CanInterface() && b.CanInterface() {
			return reflect.DeepEqual(a.Interface(), b.Interface())
		}
		return fmt.Sprint(a) == fmt.Sprint(b)
	}
}

// IsNil holds when got is nil (an untyped nil or a nil pointer, map, slice,
// func, channel or interface).
func IsNil(got any) Checker {
	return checkFunc(func() error {
		if got == nil {
			return nil
		}
		v := reflect.ValueOf(got)
		switch v.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
			if v.IsNil() {
				return nil
			}
		}
		return fmt.Errorf("got non-nil value: %#v", got)
	})
}

// IsTrue holds when got is true.
func IsTrue(got bool) Checker { return Equals(got, true) }

// IsFalse holds when got is false.
func IsFalse(got bool) Checker { return Equals(got, false) }

// Not holds when c does not.
func Not(c Checker) Checker {
	return checkFunc(func() error {
		if c.check() == nil {
			return fmt.Errorf("unexpected success of the negated check")
		}
		return nil
	})
}

// ErrorMatches holds when err is not nil and its message matches the
// anchored regular expression pattern.
func ErrorMatches(err error, pattern string) Checker {
	return checkFunc(func() error {
		if err == nil {
			return fmt.Errorf("got nil error, want one matching %q", pattern)
		}
		ok, rerr := regexp.MatchString("^(?:"+pattern+")$", err.Error())
		if rerr != nil {
			return rerr
		}
		if !ok {
			return fmt.Errorf("error %q does not match %q", err.Error(), pattern)
		}
		return nil
	})
}
