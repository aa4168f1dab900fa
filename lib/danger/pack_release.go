package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	releasePublish   = &Rule{ID: "release.publish", Action: Ask, Radius: Medium, Instead: "publish from CI on a tagged release, or check what goes out first (npm publish --dry-run, twine check, cargo publish --dry-run) and ask the user"}
	releaseUnpublish = &Rule{ID: "release.unpublish", Action: Ask, Radius: Medium, Instead: "publish a fixed version, or deprecate this one (npm deprecate), which warns users without breaking their builds"}
)

var packRelease = pack{name: "release", title: "package releases",
	rules: []*Rule{releasePublish, releaseUnpublish},
	known: (*judge).release,
}

// The options of the registry clients that take a value, so that their values are not read as
// the subcommand.
var (
	releaseOpts = shell.Opts{Short: "w", Long: []string{"registry", "otp", "tag", "workspace", "userconfig", "version", "vers", "index", "token", "host", "key", "platform"}}
	nugetOpts   = shell.Opts{Short: "sk", Long: []string{"source", "api-key", "configfile"}}
)

// release: a published version taken back from a package registry.
func (j *judge) release(c *shell.Cmd) {
	if strings.HasPrefix(c.Name, "python") && len(c.Args) > 1 && c.Args[0] == "-m" {
		// python -m twine upload: the module is the program
		m := *c
		m.Name, m.Args = c.Args[1], c.Args[2:]
		c = &m
	}
	opts := releaseOpts
	switch c.Name {
	case "npm", "yarn", "pnpm", "cargo", "gem", "twine", "poetry", "flit", "hatch", "uv", "pdm":
	case "dotnet", "nuget":
		opts = nugetOpts
	case "docker", "podman":
		j.imagePush(c)
		return
	case "pod":
		// pod trunk push puts a CocoaPods version on the public trunk, for everyone, for good;
		// pod trunk delete takes one back.
		if at(c.Args, 0) == "trunk" && at(c.Args, 1) == "push" {
			j.add(c, releasePublish, "pod trunk push publishes the pod to the CocoaPods trunk, for everyone who installs it; the version cannot be pushed again", "")
		} else if at(c.Args, 0) == "trunk" && (at(c.Args, 1) == "delete" || at(c.Args, 1) == "deprecate") {
			j.add(c, releaseUnpublish, "pod trunk "+c.Args[1]+" takes a published version of the pod back from the CocoaPods trunk", "")
		}
		return
	case "gradle", "gradlew", "mvn", "mvnw", "sbt", "mix", "lein":
		j.buildRelease(c)
		return
	default:
		return // every known command comes here: parse only the registry clients
	}
	p := opts.Parse(c.Args)
	ops := p.Operands
	what := ""
	switch c.Name {
	case "twine", "poetry", "flit", "hatch", "uv", "pdm":
		if (at(ops, 0) == "upload" && c.Name == "twine" || at(ops, 0) == "publish" && c.Name != "twine") && !testIndex(c.Args) {
			j.add(c, releasePublish, c.Name+" "+at(ops, 0)+" publishes the package to PyPI (or the index named), for everyone who installs it, for good", "")
		}
		return
	case "npm", "yarn", "pnpm":
		if at(ops, 0) == "publish" || c.Name == "yarn" && at(ops, 0) == "npm" && at(ops, 1) == "publish" {
			j.add(c, releasePublish, c.Name+" publish puts a version on the registry, for everyone who installs the package; it cannot be published again under the same number", "")
			return
		}
		if at(ops, 0) == "unpublish" {
			what = c.Name + " unpublish removes a published version from the registry: builds that depend on it break, and the version number cannot be used again"
		}
	case "cargo":
		if at(ops, 0) == "publish" {
			j.add(c, releasePublish, "cargo publish uploads the crate to crates.io for good: a published version can be yanked, never deleted", "")
			return
		}
		if at(ops, 0) == "yank" && !p.Has("undo") {
			what = "cargo yank withdraws a published crate version: projects without it locked can no longer resolve it"
		}
	case "gem":
		if at(ops, 0) == "push" {
			j.add(c, releasePublish, "gem push publishes the gem on RubyGems, for everyone who installs it", "")
			return
		}
		if at(ops, 0) == "yank" {
			what = "gem yank removes a published version from the registry: builds that depend on it break"
		}
	case "dotnet", "nuget":
		if c.Name == "dotnet" && at(ops, 0) == "nuget" {
			ops = ops[1:]
		}
		if at(ops, 0) == "push" && publicFeed(p) {
			j.add(c, releasePublish, c.Name+" nuget push publishes the package on nuget.org, for everyone who installs it", "")
			return
		}
		if at(ops, 0) == "delete" {
			what = c.Name + " nuget delete unlists or deletes a published version: builds that depend on it can break"
		}
	}
	if what != "" {
		j.add(c, releaseUnpublish, what, "")
	}
}

// buildRelease: a build tool's task or phase that publishes the artifacts to the repository the
// build names (Maven Central, a company's Nexus, Hex, Clojars): gradle publish*, mvn deploy and
// release:perform, sbt publish and release, mix hex.publish, lein deploy. Local publishing
// (publishToMavenLocal, publishLocal, install) stays silent.
func (j *judge) buildRelease(c *shell.Cmd) {
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		a = strings.TrimPrefix(a, "+")              // sbt +publish: for every Scala version
		task := a[strings.LastIndexByte(a, ':')+1:] // :lib:publish, a Gradle subproject's task
		switch c.Name {
		case "gradle", "gradlew":
			if strings.HasPrefix(task, "publish") && !strings.HasSuffix(task, "MavenLocal") && task != "publishToMavenLocal" ||
				task == "closeAndReleaseSonatypeStagingRepository" || task == "releaseSonatypeStagingRepository" || task == "uploadArchives" {
				j.add(c, releasePublish, c.Name+" "+a+" publishes the build's artifacts to the repository it names, for everyone who depends on them", "")
				return
			}
		case "mvn", "mvnw":
			if a == "deploy" || a == "release:perform" || a == "deploy:deploy-file" || strings.HasPrefix(a, "nexus-staging:") && strings.HasSuffix(a, "release") {
				j.add(c, releasePublish, c.Name+" "+a+" publishes the build's artifacts to the repository the project names, for everyone who depends on them", "")
				return
			}
		case "sbt":
			if a == "publish" || a == "publishSigned" || a == "release" || a == "sonatypeBundleRelease" || a == "sonatypeRelease" {
				j.add(c, releasePublish, "sbt "+a+" publishes the build's artifacts to the repository it names", "")
				return
			}
		case "mix":
			if a == "hex.publish" {
				j.add(c, releasePublish, "mix hex.publish puts the package on Hex, for everyone who depends on it", "")
				return
			}
		case "lein":
			if a == "deploy" {
				j.add(c, releasePublish, "lein deploy publishes the jar to Clojars or the repository named", "")
				return
			}
		}
	}
}

// publicFeed reports a nuget push to nuget.org: the default feed, or named.
func publicFeed(p shell.Parsed) bool {
	src, ok := p.Value("s", "source")
	return !ok || strings.Contains(strings.ToLower(src), "nuget.org")
}

// imagePush: docker push of an image to a public registry (Docker Hub, where a name without a
// registry goes, GitHub's, Quay, ECR Public): a private registry is a routine deploy.
func (j *judge) imagePush(c *shell.Cmd) {
	ops := shell.Opts{Long: []string{"platform"}}.Parse(c.Args).Operands
	if at(ops, 0) == "image" {
		ops = ops[1:]
	}
	var images []string
	switch {
	case at(ops, 0) == "push" && len(ops) > 1 && shell.Known(ops[1]):
		images = ops[1:2]
	case (at(ops, 0) == "buildx" && (at(ops, 1) == "build" || at(ops, 1) == "bake") || at(ops, 0) == "build") && pushes(c.Args):
		// docker buildx build -t IMAGE --push: built and pushed in one step
		for i, a := range c.Args {
			if (a == "-t" || a == "--tag") && i+1 < len(c.Args) && shell.Known(c.Args[i+1]) {
				images = append(images, c.Args[i+1])
			} else if v, ok := strings.CutPrefix(a, "--tag="); ok && shell.Known(v) {
				images = append(images, v)
			}
		}
	}
	for _, image := range images {
		if j.publicImage(c, image) {
			return
		}
	}
}

// pushes reports a build told to push what it builds (--push, --output type=registry).
func pushes(args []string) bool {
	for i, a := range args {
		if a == "--push" || strings.Contains(a, "type=registry") || (a == "-o" || a == "--output") && strings.Contains(at(args, i+1), "type=registry") {
			return true
		}
	}
	return false
}

// publicImage reports (and judges) an image pushed to a public registry.
func (j *judge) publicImage(c *shell.Cmd, image string) bool {
	host, _, hasHost := strings.Cut(image, "/")
	if !hasHost || !strings.ContainsAny(host, ".:") && host != "localhost" {
		host = "docker.io" // acme/api, ubuntu: Docker Hub
	}
	switch host {
	case "docker.io", "index.docker.io", "registry-1.docker.io", "ghcr.io", "quay.io", "public.ecr.aws", "registry.gitlab.com":
		j.add(c, releasePublish, c.Name+" pushes "+image+" to "+host+", where anyone with access to the repository pulls it", "")
		return true
	}
	return false
}

// testIndex reports an upload to TestPyPI, the index made for trying a release out.
func testIndex(args []string) bool {
	for i, a := range args {
		v := strings.ToLower(a)
		if strings.Contains(v, "test.pypi.org") || v == "testpypi" && i > 0 && (args[i-1] == "--repository" || args[i-1] == "-r") ||
			strings.HasSuffix(v, "=testpypi") {
			return true
		}
	}
	return false
}
