"""Object detection on a camera topic with the parameters of config/perception.yaml.

    ros2 launch htp_perception perception.launch.py image:=/camera/image_raw
    ros2 launch htp_perception perception.launch.py params:=/path/to/my_perception.yaml
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    share = get_package_share_directory('htp_perception')
    image = LaunchConfiguration('image')
    params = LaunchConfiguration('params')
    return LaunchDescription([
        DeclareLaunchArgument('image', default_value='/camera/image_raw',
                              description='sensor_msgs/Image topic of the camera'),
        DeclareLaunchArgument('params', default_value=os.path.join(share, 'config', 'perception.yaml'),
                              description='parameters file of the perception nodes'),
        Node(package='htp_perception', executable='detector_node', name='detector', output='screen',
             parameters=[params], remappings=[('image', image), ('image/compressed', [image, '/compressed'])]),
    ])
