package main

import (
	"testing"
	"time"
)

func TestWhen(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 30, 0, 0, time.UTC)
	def := now.Add(-time.Hour)
	for _, tt := range []struct {
		in   string
		want time.Time
	}{
		{"", def},
		{"2026-11-22T09:00:00Z", time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)},
		{"2026-11-22T09:00:00+02:00", time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)},
		{"2026-11-22", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)},
		{"36h", now.Add(-36 * time.Hour)},
		{"90m", now.Add(-90 * time.Minute)},
		{"7d", now.Add(-7 * 24 * time.Hour)},
		{"2w", now.Add(-14 * 24 * time.Hour)},
		{"0d", now},
	} {
		got, err := when(tt.in, def, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("when(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"yesterday", "-3d", "-1h", "d", "3x", "2026-13-01", "1.5d", "7dw"} {
		if got, err := when(bad, def, now); err == nil {
			t.Errorf("when(%q) = %v, want an error", bad, got)
		}
	}
}
