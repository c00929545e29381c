// pld-verify: a payload write not ordered before the notify that publishes
// it (SPEC §6, notify-before-data).
// RUN: pld-opt %s --split-input-file --pld-verify --verify-diagnostics

func.func @notify_before_data(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<1x64xf32>,
                              %value: memref<1x64xf32>, %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %publish = pl.at level core_group name "publish" {
    // expected-note @+1 {{the notify that publishes it}}
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<2x1xi32>
    // expected-error @+1 {{'pld.tensor.remote_store' writes a payload after the notify that publishes it: a peer may see the signal before the data; write the payload first, then notify}}
    pld.tensor.remote_store %value, %payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
  }
  return
}

// Near miss: the seed's order, payload first, then the signal.
func.func @data_then_notify(%signal: !pld.dtensor<2x1xi32>, %payload: !pld.dtensor<1x64xf32>,
                            %value: memref<1x64xf32>, %peer: index, %epoch: i32) attributes {pl.kernel = #pl.kernel<host>} {
  %publish = pl.at level core_group name "publish" {
    pld.tensor.remote_store %value, %payload[0, 0], peer %peer : memref<1x64xf32>, !pld.dtensor<1x64xf32>
    pld.system.notify %signal[0, 0], peer %peer, value %epoch, op set : !pld.dtensor<2x1xi32>
  }
  return
}

// -----

// Near miss: a write after a handshake belongs to the next phase.
func.func @next_phase(%signal: !pld.dtensor<2x1xi32>, %out: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>,
                      %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.wait %signal[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  pl.store %t, %out[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}

// Near miss: a second notify publishes the late write.
func.func @two_rounds(%signal: !pld.dtensor<2x1xi32>, %out: !pld.dtensor<1x64xf32>, %src: memref<1x64xf32>,
                      %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %t = pl.load %src[0, 0] : memref<1x64xf32> -> !pl.tile<1x64xf32>
  pld.system.notify %signal[0, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  pld.tile.remote_store %t, %out[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  pld.system.notify %signal[1, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  return
}
