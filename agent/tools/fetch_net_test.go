package tools

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestBlockedReason(t *testing.T) {
	for _, tc := range []struct{ addr, kind string }{
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"10.0.0.1", "private"},
		{"10.255.255.255", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.254", "private"},
		{"172.32.0.1", ""},
		{"172.15.255.255", ""},
		{"192.168.1.1", "private"},
		{"100.64.0.1", "private (shared address space)"},
		{"169.254.169.254", "link-local"},
		{"fc00::1", "private"},
		{"fd12:3456::1", "private"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"febf::1", "link-local"},
		{"fec0::1", "private (site-local)"},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"::", "unspecified"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.1.2.3", "private"},
		{"::ffff:169.254.1.1", "link-local"},
		{"::127.0.0.1", "reserved (IPv4-compatible)"},
		{"64:ff9b::7f00:1", "loopback (through NAT64)"},
		{"64:ff9b::a00:1", "private (through NAT64)"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "reserved"},
		{"8.8.8.8", ""},
		{"93.184.216.34", ""},
		{"2606:4700:4700::1111", ""},
		{"64:ff9b::808:808", ""},
		{"::ffff:8.8.8.8", ""},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			if got := blockedReason(netip.MustParseAddr(tc.addr)); got != tc.kind {
				t.Errorf("blockedReason(%s) = %q, want %q", tc.addr, got, tc.kind)
			}
		})
	}
}

// fakeNet resolves names from a table and records the addresses dialled,
// connecting each to one real listener whatever its address.
type fakeNet struct {
	hosts  map[string][]string
	target string // the listener every dial reaches; "" fails every dial

	mu     sync.Mutex
	dialed []string
}

func (f *fakeNet) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	var out []netip.Addr
	for _, s := range f.hosts[host] {
		out = append(out, netip.MustParseAddr(s))
	}
	if out == nil {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

func (f *fakeNet) dial(ctx context.Context, network, address string) (net.Conn, error) {
	f.mu.Lock()
	f.dialed = append(f.dialed, address)
	f.mu.Unlock()
	if f.target == "" {
		return nil, errors.New("connection refused")
	}
	var d net.Dialer
	return d.DialContext(ctx, network, f.target)
}

func (f *fakeNet) guard(allowPrivate bool) netGuard {
	return netGuard{allowPrivate: allowPrivate, resolve: f, dial: f.dial}
}

func (f *fakeNet) dials() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.dialed)
}

// TestGuardChecksBeforeDialling: every address a host resolves to is
// checked, and a blocked one means no dial at all; the checked address
// is what is dialled.
func TestGuardChecksBeforeDialling(t *testing.T) {
	hosts := map[string][]string{
		"public.test":   {"93.184.216.34"},
		"loopback.test": {"127.0.0.1"},
		"mixed.test":    {"93.184.216.34", "10.0.0.5"},
		"mapped.test":   {"::ffff:127.0.0.1"},
		"two.test":      {"2606:4700::1", "93.184.216.34"},
	}
	for _, tc := range []struct {
		name, addr   string
		allowPrivate bool
		refused      string // the error names this; "" when it dials
		dialed       []string
	}{
		{name: "a public host is dialled at its address", addr: "public.test:80", dialed: []string{"93.184.216.34:80"}},
		{name: "a name resolving to loopback", addr: "loopback.test:80", refused: "loopback.test resolves to 127.0.0.1, a loopback address"},
		{name: "one private address among public ones", addr: "mixed.test:443", refused: "mixed.test resolves to 10.0.0.5, a private address"},
		{name: "an IPv4-mapped IPv6 address", addr: "mapped.test:80", refused: "127.0.0.1, a loopback address"},
		{name: "a loopback literal", addr: "127.0.0.1:8080", refused: "refused: 127.0.0.1 is a loopback address"},
		{name: "an IPv6 loopback literal", addr: "[::1]:8080", refused: "::1 is a loopback address"},
		{name: "a link-local literal", addr: "169.254.169.254:80", refused: "link-local"},
		{name: "allowPrivate dials loopback", addr: "loopback.test:80", allowPrivate: true, dialed: []string{"127.0.0.1:80"}},
		{name: "each address is tried in turn", addr: "two.test:80", dialed: []string{"[2606:4700::1]:80", "93.184.216.34:80"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeNet{hosts: hosts}
			_, err := f.guard(tc.allowPrivate).DialContext(context.Background(), "tcp", tc.addr)
			var ae *AddressError
			if tc.refused != "" {
				if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), "tools.fetch.allowPrivate") {
					t.Errorf("err = %v, want an AddressError naming %q and the setting", err, tc.refused)
				}
			} else if errors.As(err, &ae) {
				t.Errorf("err = %v, want a dial", err)
			}
			if got := f.dials(); !slices.Equal(got, tc.dialed) {
				t.Errorf("dialled %q, want %q", got, tc.dialed)
			}
		})
	}
}

// TestRecheckRefusesBeforeConnecting: the real dialer's Control refuses a
// loopback address, and the listener never sees that connection (the
// first one it accepts is a later, allowed one).
func TestRecheckRefusesBeforeConnecting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = newNetGuard(false).dial(context.Background(), "tcp", ln.Addr().String())
	var ae *AddressError
	if !errors.As(err, &ae) || ae.Kind != "loopback" {
		t.Fatalf("dial %s: %v, want the loopback refusal", ln.Addr(), err)
	}
	conn, err := newNetGuard(true).dial(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if got.RemoteAddr().String() != conn.LocalAddr().String() {
		t.Errorf("the listener accepted %s first, want the allowed %s: the refused dial connected", got.RemoteAddr(), conn.LocalAddr())
	}
	if err := newNetGuard(false).recheck("tcp", "not-an-address", nil); err == nil {
		t.Error("recheck of an address it cannot read: nil, want a refusal")
	}
}

func TestSchemeError(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"https://example.com/a", ""},
		{"http://example.com", ""},
		{"HTTPS://EXAMPLE.COM/", ""},
		{"file:///etc/passwd", "only http and https URLs, not file:"},
		{"ftp://example.com/x", "not ftp:"},
		{"javascript:alert(1)", "not javascript:"},
		{"example.com/page", "not a full URL"},
		{"localhost:8080/x", "not a full URL"},
		{"http:///path", "not a full URL"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			u, err := url.Parse(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			got := schemeError(u)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("schemeError(%s) = %q, want %q", tc.url, got, tc.want)
			}
		})
	}
}
