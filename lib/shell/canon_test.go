package shell

import "testing"

// Canon writes each spelling of a folder as one path, folding case where the system does.
func TestCanon(t *testing.T) {
	for _, c := range []struct{ os, in, want string }{
		{"darwin", "/private/etc", "/etc"},
		{"darwin", "/private/var/db", "/var/db"},
		{"darwin", "/private/tmp/x", "/tmp/x"},
		{"darwin", "/PRIVATE/ETC/hosts", "/etc/hosts"},
		{"darwin", "/private/other", "/private/other"},
		{"darwin", "/System/Volumes/Data/Users/Dev", "/Users/dev"},
		{"darwin", "/users/NAME", "/Users/name"},
		{"darwin", "/Users/name/Proj", "/Users/name/proj"},
		{"darwin", "/library", "/Library"},
		{"linux", "/private/etc", "/etc"},
		{"linux", "/users/NAME", "/users/NAME"},
		{"linux", "/home/Dev", "/home/Dev"},
		{"linux", "/mnt/c/Users/Dev", "/c:/users/dev"},
		{"linux", "/mnt/data/x", "/mnt/data/x"},
		{"linux", "/c/Users/dev", "/c/Users/dev"},
		{"windows", "/c/Users/Dev", "/c:/users/dev"},
		{"windows", "/c", "/c:"},
		{"windows", "/c:/Windows", "/c:/windows"},
		{"windows", "/cd/x", "/cd/x"},
		{"linux", "relative", "relative"},
		{"linux", "", ""},
	} {
		if got := Canon(c.in, c.os); got != c.want {
			t.Errorf("Canon(%q, %s) = %q, want %q", c.in, c.os, got, c.want)
		}
	}
}

// A path with a drive letter is absolute, in either slash, wherever the command runs.
func TestResolveDrivePath(t *testing.T) {
	for _, c := range []struct{ p, dir, home, want string }{
		{`C:\Users\dev`, "/x", "", "/c:/Users/dev"},
		{"c:/Windows/../Users", "/x", "", "/c:/Users"},
		{"C:", "/x", "", "/c:"},
		{`D:\`, "/x", "", "/d:"},
		{"build", `C:\Users\dev\proj`, "", "/c:/Users/dev/proj/build"},
		{"~/.ssh", "/x", `C:\Users\dev`, "/c:/Users/dev/.ssh"},
		{"C:foo", "/x", "", "/x/C:foo"},
	} {
		if got := Resolve(c.p, c.dir, c.home); got != c.want {
			t.Errorf("Resolve(%q, %q, %q) = %q, want %q", c.p, c.dir, c.home, got, c.want)
		}
	}
}
