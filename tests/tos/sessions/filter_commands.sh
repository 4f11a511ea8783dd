filter air only comms
filter air decim rqlen 8
filter air guard cpu 4 20000
filter air code TRAP70 off
filter air match sched 0x4005 0xffff
filter air
filter air bogus
filter air only nosuchclass
filter master only comms
filter air reset
filter air
