package danger

import "testing"

// TestPackKill names the rule of the mass kills pack each command must be decided by ("": allowed).
func TestPackKill(t *testing.T) {
	checkPack(t, []packCase{
		{"kill 1", "kill.mass"},
		{"ansible all -m user -a \"name=bob state=absent\"", "kill.user"},
		{"kill %1", ""},
		{"killall node", ""},
		{"kill -9 12345", ""},
		{"kill -9 $(pgrep claude)", "kill.mass"},
		{"kill $(pgrep -f bash)", "kill.mass"},
		{"pgrep claude | xargs kill -9", "kill.mass"},
		{"kill $(pidof claude)", "kill.mass"},
		{"kill -TERM $(pidof -s sshd zsh)", "kill.mass"},
		{"taskkill /F /IM claude.exe", "kill.mass"},
		{"taskkill /IM cmd.exe /F", "kill.mass"},
		{"python3 -c 'import os; os.kill(-1, 9)'", "kill.mass"},
		{"node -e 'process.kill(-1, \"SIGKILL\")'", "kill.mass"},
		{"ruby -e 'Process.kill(9, -1)'", "kill.mass"},
		{"perl -e 'kill 9, -1'", "kill.mass"},
		{"kill $(pgrep -f my-dev-server)", ""},
		{"kill $(pgrep -n bash)", ""},
		{"pgrep node | xargs kill", ""},
		{"kill $(pidof vite)", ""},
		{"taskkill /F /IM node.exe", ""},
		{"python3 -c 'import os; os.kill(12345, 9)'", ""},
		{"python3 -c 'import os, signal; os.kill(os.getpid(), signal.SIGTERM)'", ""},
	})
}
