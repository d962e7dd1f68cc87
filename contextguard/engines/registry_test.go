package engines

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestRegistrySelect(t *testing.T) {
	ctx := context.Background()
	r := NewRegistry(testLegacy())
	f := newFake(t, nil)
	if err := r.Register("notes", f, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("arch", newFake(t, nil), 0); err != nil {
		t.Fatal(err)
	}
	if got, want := r.Names(), []string{LegacyName, "arch", "notes"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}

	cases := []struct {
		name     string
		wantName string
		timeout  time.Duration
		infoName string
	}{
		{"", LegacyName, DefaultTimeout, LegacyName},
		{LegacyName, LegacyName, DefaultTimeout, LegacyName},
		{"notes", "notes", 2 * time.Second, fakeMark},
		{"arch", "arch", DefaultTimeout, fakeMark},
	}
	for _, tc := range cases {
		g, err := r.Select(tc.name, GuardOptions{Timeout: time.Hour})
		if err != nil {
			t.Fatalf("Select(%q): %v", tc.name, err)
		}
		info, err := g.Info(ctx)
		if g.Name() != tc.wantName || g.opts.Timeout != tc.timeout || err != nil || info.Name != tc.infoName {
			t.Errorf("Select(%q) = %s with limit %v, info %+v, %v", tc.name, g.Name(), g.opts.Timeout, info, err)
		}
	}

	_, err := r.Select("notez", GuardOptions{})
	var unknown *UnknownEngineError
	if !errors.As(err, &unknown) || unknown.Name != "notez" || err.Error() != `unknown context engine "notez" (known: legacy, arch, notes)` {
		t.Errorf("Select of an unknown name: %v", err)
	}
}

func TestRegistryRegisterRefuses(t *testing.T) {
	r := NewRegistry(testLegacy())
	if err := r.Register("notes", newFake(t, nil), 0); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		e    Engine
	}{{"", newFake(t, nil)}, {LegacyName, newFake(t, nil)}, {"notes", newFake(t, nil)}, {"empty", nil}} {
		if err := r.Register(tc.name, tc.e, 0); err == nil {
			t.Errorf("Register(%q) accepted", tc.name)
		}
	}
}

func TestRegistryCloseClosesExternalEngines(t *testing.T) {
	r := NewRegistry(testLegacy())
	e := NewExternal(ExternalConfig{Name: "x", Command: []string{"true"}})
	if err := r.Register("x", e, 0); err != nil {
		t.Fatal(err)
	}
	if err := r.Register("inproc", newFake(t, nil), 0); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Info(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("Info after the registry closed: %v, want ErrClosed", err)
	}
}
