# surge as a container image: a static binary on distroless, run as the
# non-root user 65532, entrypoint surge. docs/scale-out.md runs it as the
# shards of a Kubernetes Indexed Job (surge k8s).
#
#   docker build -t ghcr.io/acme/surge:v0.3.0 .
#   docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/acme/surge:v0.3.0 --push .

ARG GO_VERSION=1.26

# Build on the builder's own platform and cross-compile: the binary is pure
# Go (CGO_ENABLED=0), so it needs no C toolchain and no libc at run time.
FROM --platform=$BUILDPLATFORM golang:${GO_VERSION} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS=linux
ARG TARGETARCH=amd64
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -ldflags="-s -w" -o /out/surge ./cmd/surge

# distroless/static holds CA certificates (for https:// targets), time zone
# data and a nonroot user, and nothing else: no shell, no package manager.
FROM gcr.io/distroless/static:nonroot
COPY --from=build /out/surge /surge
USER 65532:65532
WORKDIR /tmp
ENTRYPOINT ["/surge"]
CMD ["--help"]
