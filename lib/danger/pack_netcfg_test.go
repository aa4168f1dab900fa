package danger

import "testing"

// TestPackNetcfg names the rule of the firewall and network settings pack each command must be decided by ("": allowed).
func TestPackNetcfg(t *testing.T) {
	checkPack(t, []packCase{
		{"sudo iptables -F", "netcfg.flush"},
		{"sudo ip6tables -t nat --flush", "netcfg.flush"},
		{"sudo nft flush ruleset", "netcfg.flush"},
		{"sudo ip route flush table main", "netcfg.flush"},
		{"sudo ip -4 addr flush dev eth0", "netcfg.flush"},
		{"sudo ip ru flush", "netcfg.flush"},
		{"sudo ufw --force reset", "netcfg.flush"},
		{"sudo ufw disable", "netcfg.flush"},
		{"sudo systemctl stop firewalld", "netcfg.flush"},
		{"sudo systemctl mask --now nftables", "netcfg.flush"},
		{"sudo service ufw stop", "netcfg.flush"},
		{"sudo ufw enable", ""},
		{"sudo systemctl restart firewalld", ""},
		{"sudo iptables -L -n -v", ""},
		{"sudo iptables -A INPUT -p tcp --dport 8080 -j ACCEPT", ""},
		{"sudo ip route flush cache", ""},
		{"sudo ip neigh flush all", ""},
		{"sudo nft list ruleset", ""},
		{"sudo ufw allow 8080/tcp", ""},
	})
}

// TestPackNetcfgMacOS: macOS's packet filter flushed or off, its application firewall off.
func TestPackNetcfgMacOS(t *testing.T) {
	checkPackIn(t, macWorld(), []packCase{
		{"sudo pfctl -F all", "netcfg.flush"},
		{"sudo pfctl -Fall -f /etc/pf.conf", "netcfg.flush"},
		{"sudo pfctl -d", "netcfg.flush"},
		{"sudo /usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off", "netcfg.flush"},
		{"sudo pfctl -s rules", ""},
		{"sudo pfctl -nf /etc/pf.conf", ""},
		{"/usr/libexec/ApplicationFirewall/socketfilterfw --getglobalstate", ""},
		{"sudo /usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate on", ""},
	})
}
