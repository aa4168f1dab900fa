package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"onfailure", "onFailure", 1},
		{"git.reset-hrad", "git.reset-hard", 2}, {"timout", "timeout", 1}, {"kitten", "sitting", 3},
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	known := []string{"install", "uninstall", "status", "doctor", "run", "SecurityValidator"}
	for _, tt := range []struct{ name, want string }{
		{"unistall", "uninstall"}, {"instal", "install"}, {"Status", "status"}, {"SecurityValidatr", "SecurityValidator"},
		{"rnu", "run"}, {"rn", "run"}, {"tial", ""}, {"dcotor", "doctor"}, {"statsu", "status"}, {"launch", ""}, {"", ""},
	} {
		if got := Nearest(tt.name, known); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
