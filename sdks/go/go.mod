module github.com/reprise/reprise/sdks/go

go 1.19
