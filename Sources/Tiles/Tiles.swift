// The Tiles module. See ../../README.md and ../shared/DESIGN.md for what it holds.
