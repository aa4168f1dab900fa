package shell

import (
	"strings"
	"testing"
)

func TestPathValue(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{`'/etc/passwd')`, "/etc/passwd"},
		{`os.path.expanduser('~/.ssh'))`, "/home/dev/.ssh"},
		{`os.path.join(os.path.expanduser('~'), '.aws', 'credentials'))`, "/home/dev/.aws/credentials"},
		{`Path.home() / '.config' / 'gh')`, "/home/dev/.config/gh"},
		{`require('path').join(require('os').homedir(), '.ssh'), {recursive: true})`, "/home/dev/.ssh"},
		{`os.getenv("HOME") .. "/.ssh/id_rsa")`, "/home/dev/.ssh/id_rsa"},
		{`getenv("HOME")."/.aws/credentials")`, "/home/dev/.aws/credentials"},
		{`"$ENV{HOME}/.bashrc")`, "/home/dev/.bashrc"},
		{"`${os.homedir()}/.npmrc`)", "/home/dev/.npmrc"},
		{`File.expand_path("~/.gnupg"))`, "/home/dev/.gnupg"},
		{`File.join(Dir.home, ".kube"))`, "/home/dev/.kube"},
		{`os.path.join(os.getcwd(), 'build'))`, "/home/dev/proj/build"},
		{`glob("$ENV{HOME}/.ssh/id_*"))`, "/home/dev/.ssh/id_*"},
		{`glob "/etc/ssh/ssh_host_*";`, "/etc/ssh/ssh_host_*"},
		{`Path('~/.ssh').expanduser().resolve())`, "/home/dev/.ssh"},
		{`Path.home().joinpath('.ssh', 'id_rsa'))`, "/home/dev/.ssh/id_rsa"},
		{`Path.home().parent)`, "/home"},
		{`os.path.expanduser("~") + os.sep + ".ssh")`, "/home/dev/.ssh"},
	} {
		got, ok := pathValue(tc.expr, "/home/dev", "/home/dev/proj")
		if !ok || got != tc.want {
			t.Errorf("pathValue(%s) = %q, %v; want %q", tc.expr, got, ok, tc.want)
		}
	}
	for _, expr := range []string{`base)`, `os.path.join(base, 'x'))`, `Path.home() / name)`, `x + '/y')`, `Path.home().stem)`,
		`os.path.expanduser('~').upper())`} {
		if got, ok := pathValue(expr, "/home/dev", "/home/dev/proj"); ok {
			t.Errorf("pathValue(%s) = %q, want unknown", expr, got)
		}
	}
}

func TestSedProgram(t *testing.T) {
	for _, tc := range []struct {
		script, runs string
		adds         bool
	}{
		{`s/a/b/g`, "", false},
		{`s/e/E/e`, "E", false},
		{`1e rm -rf /`, "rm -rf /", false},
		{`/x/e curl x | sh`, "curl x | sh", false},
		{`$a export PATH=x`, "", true},
		{"1i #!/bin/sh\n$a done", "", true},
		{`/^$/d; $a x`, "", false},
		{`s|/usr|/opt|w out.txt`, "", false},
		{`y/abc/xyz/; 3q`, "", false},
		{`/start/,/end/{ s/x/y/; }`, "", false},
		{`s/.*/rm -rf ~/e`, "rm -rf ~", false},
	} {
		runs, adds := sedProgram(tc.script)
		if strings.Join(runs, ";") != tc.runs || adds != tc.adds {
			t.Errorf("sedProgram(%q) = %q, %v; want %q, %v", tc.script, runs, adds, tc.runs, tc.adds)
		}
	}
}

func TestMakeRecipes(t *testing.T) {
	got := makeRecipes("DIR = build\nall: deps ; @echo $(DIR)\ndeps:\n\t-rm -rf $(DIR) $(HOME)/x\n\techo $$PATH\n")
	want := []string{"echo build", "rm -rf build ${HOME}/x", "echo $PATH"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("makeRecipes = %q, want %q", got, want)
	}
}

func TestAwkBeginOutput(t *testing.T) {
	a := &analyzer{world: world}
	for _, tc := range []struct{ prog, want string }{
		{`BEGIN { print "a"; print "b c" }`, "a\nb c"},
		{`BEGIN{printf "rm -rf ~\n"}`, "rm -rf ~"},
		{`BEGIN { print("x"); exit }`, "x"},
		{`BEGIN { print "cd /tmp; rm -rf ~" }`, "cd /tmp; rm -rf ~"},
		{`BEGIN { print "rm -rf " ENVIRON["HOME"] }`, "rm -rf /home/dev"},
		{`BEGIN{printf "rm -rf %s\n", ENVIRON["HOME"]}`, "rm -rf /home/dev"},
		{`BEGIN{printf("%c%c -%s %d%%\n", 114, 109, "rf", 5)}`, "rm -rf 5%"},
		{`BEGIN { print sprintf("%s/.ssh", ENVIRON["HOME"]) }`, "/home/dev/.ssh"},
	} {
		if got, ok := a.awkBeginOutput(tc.prog, "/home/dev/proj"); !ok || got != tc.want {
			t.Errorf("awkBeginOutput(%s) = %q, %v; want %q", tc.prog, got, ok, tc.want)
		}
	}
	if _, ok := a.awkBeginOutput(`BEGIN { print $1 }`, "/"); ok {
		t.Error("a field is not literal output")
	}
	if _, ok := a.awkBeginOutput(`BEGIN { printf "%x\n", 255 }`, "/"); ok {
		t.Error("a verb it does not evaluate is not known output")
	}
	if _, ok := a.awkBeginOutput(`{ print "x" }`, "/"); ok {
		t.Error("a main rule depends on the input")
	}
}

func TestExpandLong(t *testing.T) {
	for _, tc := range []struct{ cmd, in, want string }{
		{"rm", "--recursiv --forc ~", "--recursive --force ~"},
		{"git push", "--forc origin main", "--force origin main"},
		{"git push", "--force-with-le origin x", "--force-with-lease origin x"},
		{"git push", "--dry-ru --force origin main", "--dry-run --force origin main"},
		{"git reset", "--har HEAD", "--hard HEAD"},
		{"git push", "--force origin -- --forc", "--force origin -- --forc"},
		{"git push", "--forc-with-l origin x", "--forc-with-l origin x"},
		{"ls", "--al", "--al"},
	} {
		if got := strings.Join(expandLong(tc.cmd, strings.Fields(tc.in)), " "); got != tc.want {
			t.Errorf("expandLong(%s, %q) = %q, want %q", tc.cmd, tc.in, got, tc.want)
		}
	}
}

// TestStringLiterals reads literals as the interpreters do: octal, hexadecimal and Unicode
// escapes, Lua's decimal ones, and literals joined side by side, with +, . or ..
func TestStringLiterals(t *testing.T) {
	for _, tc := range []struct{ lit, want string }{
		{`"\162\155 -rf"`, "rm -rf"},
		{`'\x72m'`, "rm"},
		{`"\u0072m"`, "rm"},
		{`"\u{72}m"`, "rm"},
		{`"a\nb\tc\"d"`, "a\nb\tc\"d"},
		{`"\xzz"`, "xzz"},
		{luaEscapes(`"\114\109 x"`), "rm x"},
		{luaEscapes(`"a\\1"`), `a\1`},
		{`"git reset" " --hard"`, "git reset --hard"},
		{`"rm " + '-rf'`, "rm -rf"},
		{`"rm " . "-rf" . $x`, "rm -rf"},
		{`"rm " .. "-rf"`, "rm -rf"},
		{`"rm", "-rf"`, "rm"},
	} {
		if got, ok := concatLiteral(tc.lit); !ok || got != tc.want {
			t.Errorf("concatLiteral(%s) = %q, %v; want %q", tc.lit, got, ok, tc.want)
		}
	}
}
