package danger

import "testing"

// TestPackFs names the rule of the filesystem destruction pack each command must be decided by ("": allowed).
func TestPackFs(t *testing.T) {
	checkPack(t, []packCase{
		// A loop over a list computed at run time: ask.
		{"node -e 'const fs = require(\"fs\"); for (const p of JSON.parse(fs.readFileSync(\"cleanup.json\", \"utf8\")).paths) fs.rmSync(p, { recursive: true, force: true })'", "fs.rm-computed"},
		{"ruby -rfileutils -e 'ENV.fetch(\"PURGE_DIRS\").split(\":\").each { |d| FileUtils.rm_rf(d) }'", "fs.rm-computed"},
		{"python3 -c \"import glob, shutil; [shutil.rmtree(p) for p in glob.glob('/home/dev/*')]\"", "fs.rm-critical"},
		{"python3 -c \"import pathlib, shutil; [shutil.rmtree(p) for p in pathlib.Path('.').rglob('__pycache__')]\"", ""},
		// Go code written by a heredoc and run in the same line.
		{"cat > /tmp/tidy.go <<'EOF'\npackage main\n\nimport \"os\"\n\nfunc main() { os.RemoveAll(\"/home/dev\") }\nEOF\ngo run /tmp/tidy.go", "fs.rm-critical"},
		{"cat > /tmp/x.go <<'EOF'\npackage main\nimport \"os/exec\"\nfunc main() { exec.Command(\"git\", \"reset\", \"--hard\").Run() }\nEOF\ngo run /tmp/x.go", "git.reset-hard"},
		{"cat > /tmp/hello.go <<'EOF'\npackage main\nimport \"os\"\nfunc main() { os.RemoveAll(\"build\") }\nEOF\ngo run /tmp/hello.go", ""},
		// An unknown program given a command it would stop: at most an ask.
		{"retry --times 3 --delay 5 -- rm -rf ~/", "limits.wrapped"},
		{"with-lock .deploy.lock git reset --hard origin/main", "limits.wrapped"},
		{"gh issue create --title 'rm -rf /' --body 'see logs'", ""},
		{"echo rm -rf ~/", ""},
		{"hyperfine 'rm -rf build && make'", ""},
		{"retry --times 3 -- npm test", ""},
		// Recipes given inline, or in a build file the same line wrote.
		{"make --eval='nuke: ; rm -rf $(HOME)' nuke", "fs.rm-critical"},
		{"make -E 'ship: ; git push -f origin HEAD:main' ship", "git.force-push-protected"},
		{"make --eval=$'reset:\\n\\tgit reset --hard origin/main' reset", "git.reset-hard"},
		{"cat > justfile <<'EOF'\nreset:\n    git reset --hard\nEOF\njust reset", "git.reset-hard"},
		{"cat > Taskfile.yml <<'EOF'\nversion: '3'\ntasks:\n  purge:\n    cmds:\n      - rm -rf $HOME\nEOF\ntask purge", "fs.rm-critical"},
		{"make --eval='hello: ; @echo hi' hello", ""},
		{"cat > justfile <<'EOF'\ntest:\n    go test ./...\nEOF\njust test", ""},
		// A delete in a loop over a literal list: element by element.
		{"python3 -c 'import shutil; [shutil.rmtree(p, ignore_errors=True) for p in [\"build\", \"dist\", \"/home/dev\"]]'", "fs.rm-critical"},
		{"python3 - <<'EOF'\nimport shutil\nfor p in ['.pytest_cache', '/', 'htmlcov']:\n    shutil.rmtree(p, ignore_errors=True)\nEOF", "fs.rm-critical"},
		{"python3 -c \"import shutil; [shutil.rmtree(p) for p in ('/etc', '/usr')]\"", "fs.rm-critical"},
		{"node -e 'const fs = require(\"fs\"); for (const p of [\"dist\", \"/home/dev/.ssh\"]) fs.rmSync(p, { recursive: true, force: true })'", "fs.rm-critical"},
		{"python3 -c 'import shutil; [shutil.rmtree(p, ignore_errors=True) for p in [\"build\", \"dist\"]]'", ""},
		{"ruby -rfileutils -e '%w[tmp/cache log/old].each { |d| FileUtils.rm_rf(d) }'", ""},
		// R, Julia and Tcl read as the commands they run.
		{"Rscript -e 'system2(\"rm\", c(\"-rf\", \"/home/dev\"))'", "fs.rm-critical"},
		{"Rscript -e 'unlink(\"/home/dev\", recursive = TRUE)'", "fs.rm-critical"},
		{"julia -e 'rm(\"/home/dev\"; recursive=true, force=true)'", "fs.rm-critical"},
		{"julia --startup-file=no -e 'run(`git reset --hard origin/main`)'", "git.reset-hard"},
		{"tclsh <<'EOF'\nfile delete -force /home/dev/.ssh\nputs removed\nEOF", "fs.rm-critical"},
		{"Rscript -e 'system2(\"git\", c(\"status\", \"--short\"))'", ""},
		{"julia -e 'rm(\"build/out.txt\")'", ""},
		{"julia -e 'run(`make test`)'", ""},
		{"tclsh <<'EOF'\nfile delete -force build/tmp\nEOF", ""},
		// Environment managers run the command they are given.
		{"mise exec node@20 -- rm -rf ~/", "fs.rm-critical"},
		{"devbox run -- git reset --hard origin/main", "git.reset-hard"},
		{"direnv exec . sh -c 'rm -rf \"$HOME\"/.aws'", "fs.rm-critical"},
		{"nix-shell -p git --run 'git push --force origin main'", "git.force-push-protected"},
		{"nix develop -c rm -rf /", "fs.rm-critical"},
		{"pnpm dlx rimraf /home/dev", "fs.rm-critical"},
		{"mise exec node@20 -- npm test", ""},
		{"devbox run test", ""},
		{"nix-shell --run 'make check'", ""},
		{"direnv exec . go test ./...", ""},
		{"pnpm dlx create-vite my-app", ""},
		// Every untracked file, listed then deleted: git clean by another route.
		{"git ls-files --others | xargs rm -f", "git.clean"},
		{"git ls-files -o --exclude-standard -z | xargs -0 rm -rf", "git.clean"},
		{"git status --porcelain | awk '/^\\?\\?/ {print $2}' | xargs rm -rf", "git.clean"},
		{"rm -f $(git ls-files --others --exclude-standard)", "git.clean"},
		{"git ls-files --others --exclude-standard | grep '\\.log$' | xargs -r rm -f", ""},
		{"git ls-files -z --others --exclude-standard '*.orig' '*.rej' | xargs -0 -r rm -f", ""},
		{"git ls-files | xargs wc -l", ""},
		// Home's dot-folders by a glob.
		{"find ~ -maxdepth 1 -name '.*' -exec rm -rf {} +", "fs.find-delete"},
		{"find \"$HOME\" -mindepth 1 -maxdepth 1 -name '.*' ! -name .bashrc -exec rm -rf {} \\;", "fs.find-delete"},
		{"find ~ -maxdepth 1 -name '.*.swp' -delete", ""},
		{"cd ~ && find . -maxdepth 1 -name '.[a-z]*' -print0 | xargs -0 rm -rf", "fs.find-delete"},
		{"find . -maxdepth 1 -name '.*' -print0 | xargs -0 rm -rf", ""},
		{"find . -name '.*' -path './tmp/*' -delete", ""},
		{"parallel --dry-run rm -rf {} ::: ~ /etc", ""},
		{"bash -n -c 'rm -rf ~'", ""},
		{"bash -o noexec -c 'rm -rf ~'", ""},
		{"bash -o pipefail -c 'rm -rf ~'", "fs.rm-critical"},
		{"bash <<EOF\nrm -rf ~\n", "fs.rm-critical"},
		{"find / -delete", "fs.find-delete"},
		{"mv * /tmp/trash/", "fs.mv-critical"},
		{"mv notes.txt /dev/null", "fs.mv-devnull"},
		{"mv /home/dev/proj \"$(cat n)\"", "fs.mv-dynamic"},
		{"rm -rf /", "fs.rm-critical"},
		{"rm -rf --no-preserve-root /", "fs.rm-no-preserve-root"},
		{"rm -rf /home/alice/projects", "fs.rm-other-user"},
		{"rm -rf ~bob/.cache", "fs.rm-other-user"},
		{"rm -rf ../other-service", "fs.rm-outside"},
		{"cd .. && rm -rf build", "fs.rm-outside"},
		{"rm -rf ~/.cache/go-build ~/go/pkg/mod/cache", ""},
		{"rm -rf /tmp/build-1234 \"$TMPDIR/x\"", ""},
		{"rm -rf ~/Library/Developer/Xcode/DerivedData/*", ""},
		{"ssh web1 'rm -rf /srv/app/releases/41'", ""},
		{"rm ../notes.txt", ""},
		{"find ../frontend -name '*.js' -delete", "fs.rm-outside"},
		{"find /home/alice -name '*.log' -delete", "fs.rm-other-user"},
		{"find ~/Downloads -name '*.dmg' -delete", ""},
		{"rm -rf /tmp", "fs.rm-temp"},
		{"rm -rf \"${DIST}/\"", "fs.rm-unset-variable"},
		{"rsync -a --delete empty/ ~/", "fs.rsync-delete"},
		{"shred -n 5 -u ~/.gitconfig", "fs.shred"},
		{"ls -la /", ""},
		{"rm -f *.log", ""},
		{"rm -rf ./tmp/*", ""},
	})
}

// TestPackFSMacOS: Time Machine backups and keychains deleted, and the keychains' folder.
func TestPackFSMacOS(t *testing.T) {
	checkPackIn(t, macWorld(), []packCase{
		{"sudo tmutil delete /Volumes/TM/Backups.backupdb/mac/2024-01-01-120000", "fs.backup-delete"},
		{"sudo tmutil delete -d /Volumes/TM -t 2024-01-01-120000", "fs.backup-delete"},
		{"sudo tmutil deletelocalsnapshots /", "fs.backup-delete"},
		{"security delete-keychain login.keychain", "fs.rm-critical"},
		{"rm -rf ~/Library/Keychains", "fs.rm-critical"},
		{"tmutil listbackups", ""},
		{"tmutil deletelocalsnapshots 2024-01-01-120000", ""},
		{"tmutil status", ""},
		{"security list-keychains", ""},
		{"rm -rf ~/Library/Caches/com.example.app", ""},
	})
}
