//go:build !unix

package config

import "testing"

func mkfifo(t *testing.T, _ string) { t.Skip("no FIFOs here") }
