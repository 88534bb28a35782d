// Bakes the board's lighting into its image, once when the image is made: each texel of the top
// (a flat, upward-facing surface under a fixed light) is lit as board.glsl used to light it per
// pixel, seen from straight above, without the key light's glint (board.glsl adds it when seen).
// The lacquer's reflection of the room is the same for any view more than ~37 degrees above the
// board, and differs by a display step or two below. The board's shader is one texture lookup.
#if defined VERTEX_SHADER
void main() {
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#elif defined FRAGMENT_SHADER
#include "lighting.glsl"
uniform sampler2D u_image;  // board_image(): rgb = wood (display gamma), a = lacquer gloss
out vec4 f_color;
void main() {
    vec4 t = texelFetch(u_image, ivec2(gl_FragCoord.xy), 0);
    vec3 up = vec3(0.0, 1.0, 0.0);
    vec3 c = shade(to_linear(t.rgb), up, u_eye - up, 0.5 * t.a, 300.0);
    f_color = vec4(to_display(c), t.a);  // the gloss stays for board.glsl's glint
}
#endif
