package audit

import (
	"crypto/sha256"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSum256 holds sum256 to the standard library's SHA-256: the FIPS 180-4 examples, every
// length from 0 to 600 bytes (each padding case, one to ten blocks) and a long input.
func TestSum256(t *testing.T) {
	for in, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		strings.Repeat("a", 1_000_000):                             "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	} {
		if got := LineHash([]byte(in)); got != want {
			t.Errorf("LineHash(%.20q…) = %s, want %s", in, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 600)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for n := range len(data) + 1 {
		if got, want := sum256(data[:n]), sha256.Sum256(data[:n]); got != want {
			t.Fatalf("%d bytes: %x, want %x", n, got, want)
		}
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte(`{"seq":1,"time":"2026-11-26T00:00:00Z"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := sum256(b), sha256.Sum256(b); got != want {
			t.Fatalf("%x: %x, want %x", b, got, want)
		}
	})
}
