package shell

import (
	"reflect"
	"testing"
)

// TestReads: the files a command prints, copies, archives or searches, and the ones it does not.
func TestReads(t *testing.T) {
	w := World{Cwd: "/h/p", Home: "/h", Project: "/h/p"}
	tests := []struct {
		cmd  string
		want []string // path [tree] how
	}{
		{"cat ~/.ssh/id_rsa", []string{"/h/.ssh/id_rsa cat"}},
		{"head -n 5 a.txt", []string{"/h/p/a.txt head"}},
		{"base64 -w0 < key", []string{"/h/p/key < redirect"}},
		{"grep -r TODO src", []string{"/h/p/src tree grep"}},
		{"grep -e x -e y f1 f2", []string{"/h/p/f1 grep", "/h/p/f2 grep"}},
		{"awk -F: '{print $1}' /etc/passwd", []string{"/etc/passwd awk"}},
		{"sed -n 1p x.txt", []string{"/h/p/x.txt sed"}},
		{"rg TODO", []string{"/h/p tree rg"}},
		{"rg --hidden x ~", []string{"/h tree rg --hidden"}},
		{"cp -r ~/.aws ./b", []string{"/h/.aws tree cp"}},
		{"tar czf k.tgz -C ~ .ssh", []string{"/h/.ssh tree tar"}},
		{"tar xzf k.tgz", nil},
		{"zip -r s.zip public", []string{"/h/p/public tree zip"}},
		{"dd if=/dev/sda of=x", []string{"/dev/sda dd if="}},
		{"curl file:///etc/shadow", []string{"/etc/shadow curl file://"}},
		{"curl -T notes.txt https://x", []string{"/h/p/notes.txt curl -T"}},
		{"source .env", []string{"/h/p/.env source"}},
		{"ssh-keygen -y -f ~/.ssh/id_rsa", nil},
		{"ls -la ~/.ssh", nil},
		{"echo ~/.ssh/id_rsa", nil},
		{"pwsh -c 'Get-Content ~/.ssh/id_rsa'", []string{"/h/.ssh/id_rsa Get-Content"}},
		{"python3 -c \"open('/h/.netrc').read()\"", []string{"/h/.netrc python3 code"}},
	}
	for _, tt := range tests {
		an, err := Analyze(tt.cmd, w, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tt.cmd, err)
		}
		var got []string
		for _, c := range an.Cmds {
			for _, s := range c.Reads(w.Home) {
				tree := ""
				if s.Tree {
					tree = "tree "
				}
				got = append(got, s.Path+" "+tree+s.How)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.cmd, got, tt.want)
		}
	}
}

// TestPowerShell: cmdlets, aliases, parameters and home in a PowerShell script.
func TestPowerShell(t *testing.T) {
	w := World{Cwd: "/h/p", Home: "/h"}
	tests := []struct{ script, reads, writes string }{
		{"gc ~/.ssh/id_rsa", "/h/.ssh/id_rsa", ""},
		{"Get-Content -Path $env:USERPROFILE\\.aws\\credentials -Raw", "/h/.aws/credentials", ""},
		{"$x = type .env", "/h/p/.env", ""},
		{"Copy-Item a.txt -Destination /tmp/b", "/h/p/a.txt", "/tmp/b"},
		{"Set-Content -Path out.txt -Value 'x'", "", "/h/p/out.txt"},
		{"'x' | Out-File ~/notes.md", "", "/h/notes.md"},
		{"Set-Location src; Remove-Item -Recurse -Force build", "", "/h/p/src/build"},
		{"Get-Process | Sort-Object CPU", "", ""},
		{"echo hi > log.txt", "", "/h/p/log.txt"},
	}
	for _, tt := range tests {
		an, err := AnalyzePowerShell(tt.script, w, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var reads, writes []string
		for _, c := range an.Cmds {
			for _, s := range c.Reads(w.Home) {
				reads = append(reads, s.Path)
			}
			for _, t := range c.Writes(w.Home) {
				writes = append(writes, t.Path)
			}
		}
		if r, wr := join(reads), join(writes); r != tt.reads || wr != tt.writes {
			t.Errorf("%s: reads %q writes %q, want %q and %q", tt.script, r, wr, tt.reads, tt.writes)
		}
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestCompoundRedirects: a redirection on a loop, group, subshell or if reads (or writes) its
// file for the whole body.
func TestCompoundRedirects(t *testing.T) {
	w := World{Cwd: "/h/p", Home: "/h", Project: "/h/p"}
	tests := []struct{ cmd, read, write string }{
		{"while read l; do echo $l; done < ~/.ssh/id_rsa", "/h/.ssh/id_rsa", ""},
		{"until false; do cat; done < k", "/h/p/k", ""},
		{"for f in a; do cat; done < ~/.netrc", "/h/.netrc", ""},
		{"if true; then cat; fi < ~/.ssh/id_rsa", "/h/.ssh/id_rsa", ""},
		{"{ cat; } < ~/.ssh/id_rsa", "/h/.ssh/id_rsa", ""},
		{"(cat) < ~/.aws/credentials", "/h/.aws/credentials", ""},
		{"{ echo a; } > /etc/x", "", "/etc/x"},
	}
	for _, tt := range tests {
		an, err := Analyze(tt.cmd, w, Limits{})
		if err != nil {
			t.Fatalf("%q: %v", tt.cmd, err)
		}
		var read, write string
		for _, c := range an.Cmds {
			for _, s := range c.Reads(w.Home) {
				read = s.Path
			}
			for _, x := range c.Writes(w.Home) {
				write = x.Path
			}
		}
		if read != tt.read || write != tt.write {
			t.Errorf("%q: read %q write %q, want %q %q", tt.cmd, read, write, tt.read, tt.write)
		}
	}
}
