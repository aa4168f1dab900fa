package danger

import "testing"

// TestPackRelease names the rule of the package releases pack each command must be decided by ("": allowed).
func TestPackRelease(t *testing.T) {
	checkPack(t, []packCase{
		// Releases by build tools.
		{"./gradlew publish --no-daemon", "release.publish"},
		{"gradle :lib:publishAllPublicationsToSonatypeRepository", "release.publish"},
		{"./gradlew publishToSonatype closeAndReleaseSonatypeStagingRepository", "release.publish"},
		{"mvn -B deploy -DskipTests", "release.publish"},
		{"./mvnw -B release:prepare release:perform", "release.publish"},
		{"sbt clean publish", "release.publish"},
		{"mix hex.publish --yes", "release.publish"},
		{"./gradlew publishToMavenLocal", ""},
		{"mvn -B clean install", ""},
		{"sbt publishLocal", ""},
		{"mix hex.build", ""},
		{"./gradlew build test", ""},
		{"mc mirror --remove --overwrite ./public myminio/web-assets", "cloud.sync-delete"},
		{"mc mirror --overwrite ./public myminio/web-assets", ""},
		{"npm unpublish @acme/utils@1.0.3", "release.unpublish"},
		{"npm --registry https://registry.npmjs.org unpublish acme@2.0.0", "release.unpublish"},
		{"cargo yank --version 0.3.1", "release.unpublish"},
		{"gem yank acme -v 1.2.0", "release.unpublish"},
		{"dotnet nuget delete Acme.Core 2.1.0 -s https://api.nuget.org/v3/index.json -k KEY", "release.unpublish"},
		{"cargo yank --undo --version 0.3.1", ""},
		{"npm unpublish --dry-run acme@1.0.0", ""},
		{"npm deprecate acme@1.0.0 'use 1.0.1'", ""},
		{"npm publish --dry-run", ""},
		{"npm publish --access public", "release.publish"},
		{"pnpm publish -r --no-git-checks", "release.publish"},
		{"yarn npm publish", "release.publish"},
		{"twine upload dist/*", "release.publish"},
		{"twine upload --repository testpypi dist/*", ""},
		{"uv publish", "release.publish"},
		{"cargo publish", "release.publish"},
		{"cargo publish --dry-run", ""},
		{"gem push pkg/acme-1.0.0.gem", "release.publish"},
		{"dotnet nuget push x.nupkg --source https://api.nuget.org/v3/index.json", "release.publish"},
		{"dotnet nuget push x.nupkg --source https://nuget.pkg.github.com/acme/index.json", ""},
		{"docker push acme/api:1.4.0", "release.publish"},
		{"docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/acme/api:1.4.0 --push .", "release.publish"},
		{"docker buildx build -t acme/api:2 --output type=registry .", "release.publish"},
		{"docker buildx build -t ghcr.io/acme/api:dev --load .", ""},
		{"docker buildx build -t 123456789012.dkr.ecr.us-east-1.amazonaws.com/api:1 --push .", ""},
		{"docker image push quay.io/acme/api:2", "release.publish"},
		{"docker push 123456789012.dkr.ecr.us-east-1.amazonaws.com/api:1.4.0", ""},
		{"docker push localhost:5000/api", ""},
		{"npm pack", ""},
	})
}

// TestPackReleaseCocoaPods: pod trunk push publishes to the public trunk; pod install does not.
func TestPackReleaseCocoaPods(t *testing.T) {
	checkPack(t, []packCase{
		{"pod trunk push Example.podspec --allow-warnings", "release.publish"},
		{"pod trunk delete Example 1.0.0", "release.unpublish"},
		{"pod install", ""},
		{"pod trunk me", ""},
		{"pod lib lint", ""},
	})
}
