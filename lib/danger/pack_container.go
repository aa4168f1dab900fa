package danger

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	containerDeleteProduction = &Rule{ID: "container.delete-production", Action: Deny, Radius: High, Instead: "ask the user to do this on production themselves"}
	containerDeleteListed     = &Rule{ID: "container.delete-listed", Action: Deny, Radius: High, Instead: "delete the ones you mean by name"}
	containerComposeVolumes   = &Rule{ID: "container.compose-volumes", Action: Ask, Radius: Medium, Instead: "leave -v off to keep the data"}
	containerHelmUninstall    = &Rule{ID: "container.helm-uninstall", Action: Deny, Radius: High, Instead: "ask the user to uninstall production releases"}
	containerHelmUninstallAll = &Rule{ID: "container.helm-uninstall-all", Action: Deny, Radius: High, Instead: "uninstall the release you mean by name"}
	containerK8sAll           = &Rule{ID: "container.k8s-all", Action: Deny, Radius: High, Instead: "delete the resources you mean by name or label"}
	containerK8sCrd           = &Rule{ID: "container.k8s-crd", Action: Deny, Radius: High, Instead: "delete the resources you mean by name"}
	containerK8sData          = &Rule{ID: "container.k8s-data", Action: Ask, Radius: Medium, Instead: "check what depends on it first"}
	containerK8sDeleteAll     = &Rule{ID: "container.k8s-delete-all", Action: Ask, Radius: High, Instead: "delete the resources you mean by name or label"}
	containerK8sDrainAll      = &Rule{ID: "container.k8s-drain-all", Action: Deny, Radius: High, Instead: "drain one node at a time"}
	containerK8sNamespace     = &Rule{ID: "container.k8s-namespace", Action: Deny, Radius: High, Instead: "delete the namespace you mean by name"}
	containerK8sScaleAll      = &Rule{ID: "container.k8s-scale-all", Action: Ask, Radius: Medium, Instead: "scale the deployment you mean by name"}
	containerK8sSystem        = &Rule{ID: "container.k8s-system", Action: Deny, Radius: High, Instead: "leave kube-system to the cluster's operators"}
	containerK8sProdWorkload  = &Rule{ID: "container.k8s-prod-workload", Action: Ask, Radius: High, Instead: "scale it down or roll back (kubectl rollout undo) instead, or let the user delete production workloads", scoped: true}
	containerVolumeData       = &Rule{ID: "container.volume-data", Action: Ask, Radius: Medium, Instead: "back the volume up first (docker run --rm -v NAME:/v -v $PWD:/b alpine tar czf /b/NAME.tgz -C /v .)"}
	containerPrune            = &Rule{ID: "container.prune", Action: Ask, Radius: Medium, Instead: "remove the volumes you mean by name"}
	containerRmAll            = &Rule{ID: "container.rm-all", Action: Deny, Radius: High, Instead: "remove the ones you mean by name"}
	containerHostEscape       = &Rule{ID: "container.host-escape", Action: Deny, Radius: High, Instead: "run what you need inside the container, without the host's root or namespaces"}
	containerHostAccess       = &Rule{ID: "container.host-access", Action: Ask, Radius: High, Instead: "drop --privileged, the host's root and the Docker socket unless the task needs them"}
	containerClusterAdmin     = &Rule{ID: "container.cluster-admin", Action: Deny, Radius: High, Instead: "bind a role with only the permissions needed, to one named subject"}
)

var packContainer = pack{name: "container", title: "containers and clusters",
	rules: []*Rule{containerDeleteProduction, containerDeleteListed, containerComposeVolumes, containerHostEscape, containerHostAccess, containerClusterAdmin, containerHelmUninstall, containerHelmUninstallAll, containerK8sAll, containerK8sCrd, containerK8sData, containerK8sDeleteAll, containerK8sDrainAll, containerK8sNamespace, containerK8sScaleAll, containerK8sSystem, containerK8sProdWorkload, containerVolumeData, containerPrune, containerRmAll},
	programs: []program{
		{[]string{"helm"}, (*judge).helm}, {[]string{"kubectl", "oc"}, (*judge).kubectl},
		{[]string{"docker", "podman", "docker-compose", "nerdctl"}, (*judge).docker},
		{[]string{"nsenter"}, (*judge).nsenter},
	},
	each:       []func(*judge, *shell.Cmd){(*judge).containerMounts},
	production: containerDeleteProduction, listed: containerDeleteListed,
}

// The option grammars of the programs this file judges: which options take a value.
var (
	helmOpts   = shell.Opts{Short: "n", Long: []string{"namespace", "kube-context", "kubeconfig", "timeout"}}
	dockerOpts = shell.Opts{Short: "f", Long: []string{"filter", "format"}}
)

// inNamespace reports a kubectl command aimed at the namespace ns.
func inNamespace(p shell.Parsed, ns string) bool {
	v, _ := p.Value("n", "namespace")
	return v == ns
}

// helm: uninstalling a release deletes everything it installed.
func (j *judge) helm(c *shell.Cmd) {
	ops := helmOpts.Parse(c.Args).Operands
	if len(ops) == 0 || ops[0] != "uninstall" && ops[0] != "delete" && ops[0] != "del" && ops[0] != "un" {
		return
	}
	if len(c.ArgsFrom) > 0 && massListing(c.ArgsFrom) {
		j.add(c, containerHelmUninstallAll, "it uninstalls every release a listing produced, with all their resources", "")
		return
	}
	if w := prodArgs(c); w != "" {
		j.add(c, containerHelmUninstall, "helm uninstall deletes every resource the release installed, and it names production ("+w+")", "")
	}
}

func (j *judge) kubectl(c *shell.Cmd) {
	p := shell.KubectlOpts.Parse(c.Args)
	ops := p.Operands
	if at(ops, 0) == "debug" && strings.HasPrefix(at(ops, 1), "node/") {
		// A node's debug pod mounts the node's root at /host, in its namespaces.
		if slices.Contains(c.Args, "chroot") {
			j.add(c, containerHostEscape, "kubectl debug "+ops[1]+" chroots into the node's root: a root shell on the node", "")
		} else {
			j.add(c, containerHostAccess, "kubectl debug "+ops[1]+" runs a pod with the node's root file system and namespaces", "")
		}
		return
	}
	if at(ops, 0) == "create" && (at(ops, 1) == "clusterrolebinding" || at(ops, 1) == "rolebinding") {
		j.clusterAdmin(c)
		return
	}
	if at(ops, 0) == "apply" || at(ops, 0) == "create" || at(ops, 0) == "replace" {
		// a manifest given on stdin (-f - with a here-document)
		if c.Stdin != nil && c.Stdin.Known && slices.Contains(longValues(c.Args, "filename"), "-") || c.Stdin != nil && c.Stdin.Known && slices.Contains(c.Args, "-f") {
			j.manifest(c, c.Stdin.Text)
		}
	}
	if at(ops, 0) == "run" {
		for _, o := range longValues(c.Args, "overrides") {
			j.manifest(c, o) // kubectl run --overrides='{"spec": ...}': the pod's spec
		}
	}
	if len(ops) > 0 && ops[0] == "scale" && p.Has("all") && (slices.Contains(c.Args, "--replicas=0") || p.Flags["replicas"] == "0") {
		j.add(c, containerK8sScaleAll, "it scales every deployment to zero: an outage of the namespace", "")
		return
	}
	if len(ops) > 0 && ops[0] == "drain" && len(c.ArgsFrom) > 0 && massListing(c.ArgsFrom) {
		j.add(c, containerK8sDrainAll, "it drains every node a listing produced, evicting every workload in the cluster", "")
		return
	}
	if len(ops) == 0 || ops[0] != "delete" {
		return
	}
	for _, f := range c.ArgsFrom {
		if (f.Name == "kubectl" || f.Name == "oc") && slices.Contains(f.Args, "get") && (slices.Contains(f.Args, "ns") || slices.Contains(f.Args, "namespace") || slices.Contains(f.Args, "namespaces")) {
			j.add(c, containerK8sNamespace, "it deletes the namespaces a listing produced, and with them everything running in them", "")
			return
		}
	}
	if massListing(c.ArgsFrom) {
		j.add(c, containerK8sDeleteAll, "it deletes every resource a listing printed", "")
		return
	}
	kind := at(ops, 1)
	switch {
	case kind == "namespace" || kind == "namespaces" || kind == "ns" || strings.HasPrefix(kind, "namespace/") || strings.HasPrefix(kind, "ns/"):
		j.add(c, containerK8sNamespace, "deleting a namespace deletes everything running in it", "delete the workloads you mean by name")
	case p.Has("all", "A", "all-namespaces"):
		j.add(c, containerK8sAll, "kubectl delete --all removes every resource of that kind", "")
	case inNamespace(p, "kube-system") && kind != "pod" && kind != "pods" && !strings.HasPrefix(kind, "pod/"):
		j.add(c, containerK8sSystem, "it deletes "+kind+" from kube-system, which the whole cluster runs on", "")
	case kind == "crd" || kind == "crds" || kind == "customresourcedefinition" || kind == "customresourcedefinitions" || strings.HasPrefix(kind, "crd/") || strings.HasPrefix(kind, "customresourcedefinition"):
		j.add(c, containerK8sCrd, "deleting a custom resource definition deletes every resource of that kind in the cluster", "")
	case kind == "pv" || kind == "pvc" || kind == "persistentvolumeclaim" || kind == "persistentvolume" || kind == "crd" || kind == "customresourcedefinition" || kind == "node":
		j.add(c, containerK8sData, "kubectl delete "+kind+" can destroy stored data or workloads", "")
	case workloadKind(kind) || kind == "" && p.Has("f", "filename", "k", "kustomize"):
		if w := cmp.Or(kubeProduction(c, p), j.exportedProd(c, "KUBECONFIG")); w != "" {
			what := strings.Join(ops[1:], " ")
			if kind == "" {
				what = "the objects of " + cmp.Or(optionValue(c.Args, "-f"), "the manifests")
			}
			j.add(c, containerK8sProdWorkload, "it deletes "+what+" in production ("+w+"): the service goes down until it is deployed again", "")
		}
	}
}

// workloadKind reports kubectl kinds that serve traffic or run work, deleted with their pods and
// not recreated (deployment/api and deploy,svc spellings too). A pod alone is recreated by its
// controller.
func workloadKind(kind string) bool {
	for _, k := range strings.Split(kind, ",") {
		k, _, _ = strings.Cut(strings.ToLower(k), "/")
		k, _, _ = strings.Cut(k, ".") // deployments.apps
		switch k {
		case "deployment", "deployments", "deploy", "statefulset", "statefulsets", "sts", "daemonset", "daemonsets", "ds",
			"replicaset", "replicasets", "rs", "cronjob", "cronjobs", "cj", "service", "services", "svc", "ingress", "ingresses", "ing", "all":
			return true
		}
	}
	return false
}

// exportedProd says which export earlier in the line set the variable name to a value named
// for production (export KUBECONFIG=~/.kube/prod && kubectl ...): "" when none did.
func (j *judge) exportedProd(c *shell.Cmd, name string) string {
	for _, o := range j.an.Cmds {
		if o == c {
			break
		}
		if o.Name != "export" && o.Name != "declare" && o.Name != "typeset" {
			continue
		}
		for _, a := range o.Args {
			if k, v, ok := strings.Cut(a, "="); ok && k == name && prodWord(v) {
				return a
			}
		}
	}
	return ""
}

// kubeProduction says which namespace, context or kubeconfig aims kubectl at production.
func kubeProduction(c *shell.Cmd, p shell.Parsed) string {
	for _, k := range []string{"n", "namespace", "context", "cluster", "kubeconfig"} {
		if v, ok := p.Flags[k]; ok && prodWord(v) {
			if k == "n" {
				return "-n " + v
			}
			return "--" + k + " " + v
		}
	}
	for _, e := range c.Env {
		if k, v, _ := strings.Cut(e, "="); k == "KUBECONFIG" && prodWord(v) {
			return e
		}
	}
	return ""
}

// manifest judges a Kubernetes manifest (YAML or JSON) applied or run: cluster-admin bound to a
// whole class of users or to a service account, and a pod that shares the node's processes
// (hostPID) and enters PID 1's namespaces or runs privileged.
func (j *judge) manifest(c *shell.Cmd, text string) {
	flat := strings.NewReplacer(`"`, "", " ", "", "\t", "").Replace(text)
	if strings.Contains(flat, "kind:ClusterRoleBinding") || strings.Contains(flat, "kind:RoleBinding") {
		if strings.Contains(flat, "name:cluster-admin") {
			for _, g := range []string{"system:anonymous", "system:authenticated", "system:unauthenticated", "system:serviceaccounts"} {
				if strings.Contains(flat, "name:"+g) {
					j.add(c, containerClusterAdmin, "the manifest makes every user of "+g+" a cluster administrator", "")
					return
				}
			}
			if strings.Contains(flat, "kind:ServiceAccount") {
				j.add(c, containerClusterAdmin, "the manifest makes a service account a cluster administrator: any pod running as it owns the cluster", "")
				return
			}
			j.add(c, containerHostAccess, "the manifest binds cluster-admin, every permission on the cluster", "bind a role with only the permissions needed")
			return
		}
	}
	if strings.Contains(flat, "hostPID:true") && (strings.Contains(flat, "nsenter") || strings.Contains(flat, "privileged:true")) {
		j.add(c, containerHostEscape, "the pod shares the node's processes and enters PID 1's namespaces (or runs privileged): a root shell on the node", "")
	}
}

// clusterAdmin: cluster-admin bound to a service account or to a whole class of users gives
// whatever holds it every permission on the cluster.
func (j *judge) clusterAdmin(c *shell.Cmd) {
	if !slices.Contains(longValues(c.Args, "clusterrole"), "cluster-admin") {
		return
	}
	for _, g := range append(longValues(c.Args, "group"), longValues(c.Args, "user")...) {
		if g == "system:anonymous" || g == "system:authenticated" || g == "system:unauthenticated" || g == "system:serviceaccounts" {
			j.add(c, containerClusterAdmin, "it makes every user of "+g+" a cluster administrator", "")
			return
		}
	}
	if sa := longValues(c.Args, "serviceaccount"); len(sa) > 0 {
		j.add(c, containerClusterAdmin, "it makes the service account "+sa[0]+" a cluster administrator: any pod running as it owns the cluster", "")
		return
	}
	j.add(c, containerHostAccess, "it binds cluster-admin, every permission on the cluster", "bind a role with only the permissions needed")
}

// nsenter: entering PID 1's mount (or every) namespace from a container is a shell on the host.
func (j *judge) nsenter(c *shell.Cmd) {
	target, mount := "", false
	for i, a := range c.Args {
		switch {
		case a == "-t" || a == "--target":
			target = at(c.Args, i+1)
		case strings.HasPrefix(a, "--target="):
			target = strings.TrimPrefix(a, "--target=")
		case strings.HasPrefix(a, "-t") && len(a) > 2 && a[2] >= '0' && a[2] <= '9':
			target = a[2:]
		case a == "-m" || a == "--mount" || a == "-a" || a == "--all" || strings.HasPrefix(a, "--mount="):
			mount = true
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "ma") && strings.Trim(a[1:], "muinpCUTra") == "":
			mount = true // -mui...
		}
	}
	if target == "1" && mount {
		j.add(c, containerHostEscape, "nsenter into PID 1's namespaces is a root shell on the host", "")
	}
}

// hostGrant is what a container is given of the host.
type hostGrant struct {
	root, writable, sock, devices, procs, escape bool
}

// hostAccess judges a container by what it is given of the host: its root entered with chroot
// or nsenter (a root shell on the host: deny); its writable root, the Docker socket, its
// devices or its processes (ask).
func (j *judge) hostAccess(c *shell.Cmd, g hostGrant) {
	switch {
	case g.root && g.escape:
		j.add(c, containerHostEscape, "the container gets the host's root and enters it: a root shell on the host", "")
	case g.root && g.writable:
		j.add(c, containerHostAccess, "the container gets the host's whole file system, writable", "mount only the folders the task needs, read-only where it can")
	case g.sock:
		j.add(c, containerHostAccess, "the container gets the Docker socket, which is root on the host", "")
	case g.devices:
		j.add(c, containerHostAccess, "the container gets the host's devices (--privileged or --device)", "")
	case g.procs:
		j.add(c, containerHostAccess, "the container shares the host's processes (--pid=host)", "")
	}
}

// hostRun: docker run or create with no command of its own to judge (the image's runs): what
// its options give it of the host. A command given is judged inside (containerMounts).
func (j *judge) hostRun(c *shell.Cmd, sub []string) {
	if len(sub) > 0 && sub[0] == "container" {
		sub = sub[1:]
	}
	if at(sub, 0) != "run" && at(sub, 0) != "create" {
		return
	}
	var g hostGrant
	args := sub[1:]
	for i, a := range args {
		val := ""
		name, v, hasEq := strings.Cut(a, "=")
		switch name {
		case "-v", "--volume", "--mount":
			val = v
			if !hasEq {
				val = at(args, i+1)
			}
		case "--privileged":
			g.devices = g.devices || v == "" || v == "true"
			continue
		case "--pid":
			g.procs = cmp.Or(v, at(args, i+1)) == "host"
			continue
		default:
			if strings.HasPrefix(a, "-v/") {
				val = a[2:]
			}
		}
		if val == "" {
			continue
		}
		src, ro := val, false
		if name == "--mount" {
			src = ""
			for _, kv := range strings.Split(val, ",") {
				k, x, _ := strings.Cut(kv, "=")
				switch k {
				case "source", "src":
					src = x
				case "readonly", "ro":
					ro = true
				}
			}
		} else {
			parts := strings.Split(val, ":")
			src, ro = parts[0], len(parts) > 2 && strings.Contains(","+parts[2]+",", ",ro,")
		}
		switch j.canon(src) {
		case "/":
			g.root, g.writable = true, g.writable || !ro
		case "/var/run/docker.sock", "/run/docker.sock":
			g.sock = true
		}
	}
	j.hostAccess(c, g)
}

// containerMounts judges a command run inside a container by what the container was given of
// the host (its mounts): entering the host's root with chroot is a root shell on the host.
func (j *judge) containerMounts(c *shell.Cmd) {
	if len(c.Mounts) == 0 {
		return
	}
	g := hostGrant{escape: c.Name == "chroot" || slices.Contains(c.Via, "chroot")}
	for _, m := range c.Mounts {
		switch j.canon(m.Host) {
		case "/":
			g.root, g.writable = true, g.writable || !m.ReadOnly
		case "/var/run/docker.sock", "/run/docker.sock":
			g.sock = true
		case "/dev":
			g.devices = g.devices || m.Container == "/dev"
		case "/proc":
			g.procs = g.procs || m.Container == "/proc"
		}
	}
	j.hostAccess(c, g)
}

func (j *judge) docker(c *shell.Cmd) {
	sub, compose := shell.EngineArgs(c.Name, c.Args)
	if !compose {
		j.hostRun(c, sub)
	}
	if compose {
		if at(sub, 0) == "down" && (slices.Contains(sub, "-v") || slices.Contains(sub, "--volumes")) {
			j.add(c, containerComposeVolumes, "compose down -v deletes the project's named volumes and the data in them", "")
		}
		return
	}
	if ops := (shell.Opts{}).Parse(sub); len(ops.Operands) > 0 && ops.Has("a", "all") {
		switch o := ops.Operands; {
		case o[0] == "rm" || o[0] == "rmi" || (o[0] == "container" || o[0] == "image" || o[0] == "pod") && at(o, 1) == "rm":
			j.add(c, containerRmAll, c.Name+" "+strings.Join(o[:min(2, len(o))], " ")+" --all removes every container, image or pod", "")
			return
		case o[0] == "volume" && at(o, 1) == "rm":
			if ops.Has("f", "force") {
				j.add(c, containerRmAll, c.Name+" volume rm --all --force deletes every volume's data, in use or not", "remove the volumes you mean by name")
			} else {
				j.add(c, containerPrune, c.Name+" volume rm --all deletes the data of every unused volume", "")
			}
			return
		}
	}
	ops := dockerOpts.Parse(sub).Operands
	s := strings.Join(ops, " ")
	switch {
	case strings.HasPrefix(s, "system prune"):
		j.add(c, containerPrune, "docker system prune removes stopped containers, images, networks (and with --volumes, data)", "remove the containers or images you mean by name")
	case s == "system reset" || strings.HasPrefix(s, "system reset "):
		j.add(c, containerRmAll, c.Name+" system reset deletes every container, image, network and volume", "remove what you mean by name")
	case strings.HasPrefix(s, "volume prune"):
		j.add(c, containerPrune, "docker volume prune deletes the data of every unused volume", "")
	case strings.HasPrefix(s, "rm") || strings.HasPrefix(s, "rmi") || strings.HasPrefix(s, "volume rm") || strings.HasPrefix(s, "container rm") || strings.HasPrefix(s, "image rm"):
		for _, f := range c.ArgsFrom {
			if (f.Name == "docker" || f.Name == "podman" || f.Name == "nerdctl") && !filtered(f.Args) {
				j.add(c, containerRmAll, "it removes every container, image or volume that docker lists", "")
				return
			}
		}
		if at(ops, 0) == "volume" && at(ops, 1) == "rm" {
			// volume rm's -f is --force: its operands are every word that is no option
			names := (shell.Opts{}).Parse(sub[slices.Index(sub, "rm")+1:]).Operands
			for _, f := range c.ArgsFrom {
				// docker volume rm $(docker volume ls -q --filter name=mysql): the volumes the
				// filter names
				for i, a := range f.Args {
					if v, ok := strings.CutPrefix(a, "name="); ok && i > 0 && (f.Args[i-1] == "--filter" || f.Args[i-1] == "-f") {
						names = append(names, v)
					} else if v, ok := strings.CutPrefix(a, "--filter=name="); ok {
						names = append(names, v)
					}
				}
			}
			for _, v := range names {
				if dataVolume(v) {
					j.add(c, containerVolumeData, c.Name+" volume rm deletes the volume "+v+" and the data in it, which no command brings back", "")
					return
				}
			}
		}
	}
}

// dataVolume reports a volume named for the data it keeps (pgdata, app_db-data, redis-data,
// mysql), not for a cache, build output or test data (node_modules, cache, pgdata-test).
func dataVolume(name string) bool {
	if stagingTarget(name) {
		return false // pgdata-test: test data
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		switch w {
		case "cache", "tmp", "temp", "modules", "build", "logs":
			return false
		case "data", "pgdata", "db", "database", "pg", "postgres", "postgresql", "mysql", "mariadb", "mongo", "mongodb", "redis", "valkey",
			"elasticsearch", "opensearch", "es", "minio", "kafka", "rabbitmq", "clickhouse", "cassandra", "influxdb", "etcd", "vault",
			"uploads", "storage", "backup", "backups", "sqlite", "neo4j", "couchdb":
			return true
		}
		if strings.HasSuffix(w, "data") || strings.HasSuffix(w, "db") {
			return true // pgdata, mysqldata, appdb
		}
	}
	return false
}

// filtered reports a docker listing narrowed by --filter or -f.
func filtered(args []string) bool {
	for _, a := range args {
		if a == "-f" || a == "--filter" || strings.HasPrefix(a, "--filter=") {
			return true
		}
	}
	return false
}

// longValues is every value of the long option --name, as --name=v or --name v.
func longValues(args []string, name string) []string {
	var out []string
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			out = append(out, v)
		} else if a == "--"+name && i+1 < len(args) {
			out = append(out, args[i+1])
		}
	}
	return out
}
