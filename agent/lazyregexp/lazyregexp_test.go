package lazyregexp

import (
	"sync"
	"testing"
)

func TestGetCompilesOnceOnFirstUse(t *testing.T) {
	number := &Regexp{Expr: `^\d+$`}
	if number.re != nil {
		t.Fatal("compiled before the first Get")
	}
	const getters = 8
	got := make(chan any, getters)
	var wg sync.WaitGroup
	for range getters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got <- number.Get()
		}()
	}
	wg.Wait()
	close(got)
	first := number.Get()
	for re := range got {
		if re != first {
			t.Fatal("Get returned different compilations")
		}
	}
	for _, tc := range []struct {
		in   string
		want bool
	}{{"123", true}, {"12a", false}, {"", false}} {
		if got := first.MatchString(tc.in); got != tc.want {
			t.Errorf("MatchString(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestGetPanicsOnABadPatternEveryTime(t *testing.T) {
	bad := &Regexp{Expr: `(`}
	for call := range 2 {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("call %d: Get of an invalid pattern did not panic", call+1)
				}
			}()
			bad.Get()
		}()
	}
}
