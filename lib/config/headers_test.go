package config

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestIsHeaders(t *testing.T) {
	for doc, want := range map[string]bool{
		`{}`: true,
		`{"Authorization": {"env": "TOKEN"}, "X-Org": {"file": "/etc/org"}}`: true,
		`{"Authorization": "Bearer secret"}`:                                 false, // a value, not a source
		`{"Authorization": {"env": "A", "file": "/f"}}`:                      false,
		`{"Authorization": {"env": ""}}`:                                     false,
		`{"Authorization": {"value": "x"}}`:                                  false,
		`{"Bad Name": {"env": "A"}}`:                                         false,
		`["Authorization"]`:                                                  false,
	} {
		if got := IsHeaders(gjson.Parse(doc)); got != want {
			t.Errorf("%s: %v, want %v", doc, got, want)
		}
	}
}
