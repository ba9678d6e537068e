module replyd.bench/peergo

go 1.19
