// A plain Box3D program of a pyramid of touching unit cubes, written as a Box3D user writes it,
// with nothing of collide: Box3D's own large_pyramid scene (its benchmark, and
// ../shared/peers/box3d_rigid's `large_pyramid`) for any number of rows. ROWS rows of unit cubes
// (half-size 0.5), row r holding ROWS - r cubes 1 m apart centred on x = 0 at y = 0.5 + r, density
// 100, friction 0.6, restitution 0, on a static ground box of half extents (400, 1, 400) whose
// top is y = 0 (friction 0.6), gravity -10 along y, sleeping off, FRAMES steps of 1/60 s with 4
// substeps, one worker.
// Prints one line: `rows=R frames=F top_drift_m=D top_y=Y` — how far the top cube moved from
// where it was put, and where it ended. tests/engines/box3d/plain/compare_pyramid.py compares it
// with `collide sim --engine box3d` of the same scene written by scripts/make-pyramid.py.
// usage: box3d_pyramid ROWS FRAMES
#include "box3d/box3d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main( int argc, char** argv )
{
	if ( argc != 3 )
	{
		fprintf( stderr, "usage: box3d_pyramid ROWS FRAMES\n" );
		return 2;
	}
	int rows = atoi( argv[1] ), frames = atoi( argv[2] );
	if ( rows < 1 || frames < 0 )
	{
		fprintf( stderr, "box3d_pyramid: ROWS must be 1 or more, FRAMES 0 or more\n" );
		return 2;
	}

	b3WorldDef def = b3DefaultWorldDef();
	def.gravity = (b3Vec3){ 0.0f, -10.0f, 0.0f };
	def.workerCount = 1;
	b3WorldId world = b3CreateWorld( &def );
	b3World_EnableSleeping( world, false );

	b3BodyDef groundDef = b3DefaultBodyDef();
	groundDef.position = (b3Pos){ 0.0f, -1.0f, 0.0f };
	b3BodyId ground = b3CreateBody( world, &groundDef );
	b3BoxHull groundBox = b3MakeBoxHull( 400.0f, 1.0f, 400.0f );
	b3ShapeDef groundShape = b3DefaultShapeDef();
	groundShape.baseMaterial.friction = 0.6f;
	b3CreateHullShape( ground, &groundShape, &groundBox.base );

	b3BoxHull cube = b3MakeBoxHull( 0.5f, 0.5f, 0.5f );
	b3ShapeDef cubeShape = b3DefaultShapeDef();
	cubeShape.density = 100.0f;
	cubeShape.baseMaterial.friction = 0.6f;
	b3BodyId top = b3_nullBodyId;
	b3Vec3 topStart = { 0.0f, 0.0f, 0.0f };
	for ( int row = 0; row < rows; ++row )
	{
		for ( int i = 0; i < rows - row; ++i )
		{
			b3BodyDef bodyDef = b3DefaultBodyDef();
			bodyDef.type = b3_dynamicBody;
			bodyDef.position = (b3Pos){ (float)i - 0.5f * (float)( rows - row - 1 ), 0.5f + (float)row, 0.0f };
			top = b3CreateBody( world, &bodyDef );
			topStart = bodyDef.position;
			b3CreateHullShape( top, &cubeShape, &cube.base );
		}
	}

	for ( int f = 0; f < frames; ++f )
	{
		b3World_Step( world, 1.0f / 60.0f, 4 );
	}

	b3Pos p = b3Body_GetPosition( top );
	double dx = p.x - topStart.x, dy = p.y - topStart.y, dz = p.z - topStart.z;
	printf( "rows=%d frames=%d top_drift_m=%.6f top_y=%.6f\n", rows, frames, sqrt( dx * dx + dy * dy + dz * dz ), p.y );
	b3DestroyWorld( world );
	return 0;
}
