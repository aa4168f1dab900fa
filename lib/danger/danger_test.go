package danger

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookkit/harness/lib/shell"
)

func TestHostPath(t *testing.T) {
	for _, tt := range []struct{ url, host, path string }{
		{"https://sh.rustup.rs", "sh.rustup.rs", "/"},
		{"https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh", "raw.githubusercontent.com", "/Homebrew/install/HEAD/install.sh"},
		{"http://user:pw@Get.Docker.com:8080/x?y#z", "get.docker.com", "/x?y#z"},
		{"https://get.docker.com.evil.io/x", "get.docker.com.evil.io", "/x"},
		{"https://[::1]:8443/p", "::1", "/p"},
		{"get.docker.com", "", ""},
	} {
		h, p := hostPath(tt.url)
		if h != tt.host || (tt.host != "" && p != tt.path) {
			t.Errorf("hostPath(%q) = %q %q", tt.url, h, p)
		}
	}
}

func TestReasonNamesRuleAndAlternative(t *testing.T) {
	v := Judge("git reset --hard HEAD~2", Input{World: testWorld("")})
	want := "blocked `git reset --hard HEAD~2`: git reset --hard discards all uncommitted changes, and with a commit moves the branch away from work [rule git.reset-hard, git history, blast radius high].\nInstead: git stash (or commit) first; to move the branch keep changes with git reset --soft or --mixed."
	if v.Reason() != want {
		t.Errorf("got %q", v.Reason())
	}
}

func TestPolicyPatterns(t *testing.T) {
	pol := Defaults()
	pol.Deny = []PatternRule{{Pattern: "terraform apply", Reason: "applies go through CI"}}
	pol.Ask = []PatternRule{{Pattern: "kubectl * prod*"}}
	pol.Disable = []string{"git.reset-hard"}
	for cmd, want := range map[string]Action{
		"terraform apply -auto-approve":       Deny,
		"sudo terraform apply":                Deny,
		"terraform plan":                      Allow,
		"kubectl scale prod-web --replicas=0": Ask,
		"git reset --hard":                    Allow,
		"git clean -fd":                       Deny,
	} {
		if got := Judge(cmd, Input{World: testWorld(""), Policy: pol}).Action; got != want {
			t.Errorf("%s: %s, want %s", cmd, got, want)
		}
	}
}

// A push of HEAD or a bare force push goes to the branch checked out, read from .git/HEAD.
func TestForcePushOfHEADIsTheCurrentBranch(t *testing.T) {
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	for branch, want := range map[string]Action{"main": Deny, "feature/x": Ask} {
		os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o644)
		in := Input{World: shell.World{Cwd: repo, Home: "/home/dev", Project: repo}}
		for _, cmd := range []string{"git push --force origin HEAD", "git push origin +HEAD", "git push -f"} {
			if got := Judge(cmd, in).Action; got != want {
				t.Errorf("on %s, %q: %v, want %v", branch, cmd, got, want)
			}
		}
	}
}

// A checkout earlier in the line decides which branch a bare force push goes to.
func TestForcePushAfterCheckout(t *testing.T) {
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644)
	in := Input{World: shell.World{Cwd: repo, Home: "/home/dev", Project: repo}}
	for cmd, want := range map[string]Action{
		"git checkout main && git push -f":                   Deny,
		"git switch main && git push --force origin HEAD":    Deny,
		"git checkout -b hotfix && git push -f":              Ask,
		"git checkout README.md && git push -f":              Ask,
		"git switch -c release/1 && git push -f origin HEAD": Deny,
	} {
		if got := Judge(cmd, in).Action; got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

func TestSecretName(t *testing.T) {
	secretName := shell.SecretName
	for _, n := range []string{"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "PGPASSWORD", "DB_PASS", "MYSQL_PWD",
		"NPM_TOKEN", "client_secret", "GH_PAT", "STRIPE_SECRET_KEY", "SSH_PRIVATE_KEY", "HF_TOKEN", "DOCKER_PASSWORD", "GPG_PASSPHRASE"} {
		if !secretName(n) {
			t.Errorf("%s: not taken for a credential", n)
		}
	}
	for _, n := range []string{"PWD", "OLDPWD", "PORT", "HOME", "TOKEN_URL", "SECRET_NAME", "AWS_ACCESS_KEY_ID", "TOKENIZERS_PARALLELISM",
		"PUBLIC_KEY", "CACHE_KEY", "NEXT_PAGE_TOKEN", "PAGE_TOKEN", "PASSWORD_FILE", "GOOGLE_APPLICATION_CREDENTIALS_PATH", "KEY", "SORT_KEY", "BUCKET_NAME"} {
		if secretName(n) {
			t.Errorf("%s: taken for a credential", n)
		}
	}
}
